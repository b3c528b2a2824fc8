import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the board at a seat-pool venue is tested in a real browser');

/** A restaurant's words: a seat pool holds seats for a group, it offers no table and sweeps nothing. */
const RESTAURANT_WORDS = /\boffers?\b|\boffered\b|\bsweep|\bswept\b|\btables?\b/i;

/**
 * A workshop organizer on a 390×844 phone: a 13-seat pool, 7-minute holds, Adelaide time. The rows,
 * counts and filters say held and hold, yet the action bar said "Sweep expired offers" (and answered
 * "Swept: no offer had run out."), the practice clock "offers whose time is up then run out" and
 * "; 1 offer ran out.", the lapse alert "The seat offer to … ran out." and a promotion "Seats
 * offered to the next group.". A restaurant's board keeps its own words (the restaurant spec's
 * "Sweep expired offers" among them).
 */
d('a workshop board speaks of holds, a restaurant board of offers', () => {
  const file = phoneBoardFile('organizer');
  const { phone } = file;
  const api = () => request(file.t.baseUrl);
  const notice = (page: Page, text: string) => page.locator('[data-testid=notice]', { hasText: text }).first();
  const noticesText = async (page: Page): Promise<string[]> => page.locator('[data-testid=notice]').allInnerTexts();

  it('at a seat pool: the bar, the practice clock, a promotion, a lapse and a hand release all say hold', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Quandong Studio',
      timeZone: 'Australia/Adelaide',
      clock: '2026-12-11T09:40:00+10:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
    await joined(file.t, file.owner, v.id, { name: 'Tui Group', partySize: 5, email: 'tui@example.test' });
    const page = await phone(v.id);

    const release = page.getByTestId('sweep-offers');
    expect(await release.innerText()).not.toMatch(RESTAURANT_WORDS);
    expect((await release.textContent())?.trim()).toBe('Release expired holds');
    expect(await page.getByTestId('sandbox-clock').innerText()).not.toMatch(RESTAURANT_WORDS);

    // Promoting from the seats panel.
    await page.getByTestId('promote').click();
    await notice(page, 'Tui Group').waitFor();
    await page.locator('[data-testid=entry] [data-testid=accept]').waitFor();
    expect(await notice(page, 'Tui Group').innerText()).toContain('Seats held for Tui Group');

    // Seven minutes pass on the practice clock: the hold lapses.
    for (const step of ['clock-5', 'clock-5']) {
      const before = await page.getByTestId('clock-now').textContent();
      await page.getByTestId(step).click();
      await page.locator('[data-testid=clock-now]', { hasNotText: before ?? '' }).waitFor();
    }
    await notice(page, '; 1 hold ran out.').waitFor();
    await notice(page, 'The hold for Tui Group ran out.').waitFor();
    await screenshot(page, 'board-pool-holds-lapsed');

    // An empty release by hand is a plain answer too.
    await release.click();
    await notice(page, 'No hold had run out').waitFor();

    const said = await noticesText(page);
    for (const text of said) expect({ text, leaks: RESTAURANT_WORDS.test(text) }).toEqual({ text, leaks: false });
    expect(await page.locator('body').innerText()).not.toMatch(RESTAURANT_WORDS);
    await screenshot(page, 'board-pool-holds-released');
  }, 120_000);

  it('at a restaurant: the bar and the practice clock keep their words', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Kererū Kitchen',
      timeZone: 'Australia/Adelaide',
      clock: '2026-12-11T19:40:00+10:30',
      tables: [{ label: 'Patio 7', capacity: 4 }],
      patch: { policy: { holdSeconds: 420 } },
    });
    const p = await joined(file.t, file.owner, v.id, { name: 'Hemi Party', partySize: 3, email: 'hemi@example.test' });
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds['Patio 7']] })
      .expect(201);
    const page = await phone(v.id);
    await page.locator('[data-testid=entry] [data-testid=accept]').waitFor();
    expect((await page.getByTestId('sweep-offers').textContent())?.trim()).toBe('Sweep expired offers');
    for (const step of ['clock-5', 'clock-5']) {
      const before = await page.getByTestId('clock-now').textContent();
      await page.getByTestId(step).click();
      await page.locator('[data-testid=clock-now]', { hasNotText: before ?? '' }).waitFor();
    }
    await notice(page, '; 1 offer ran out.').waitFor();
    await notice(page, 'The table offer to Hemi Party ran out.').waitFor();
    await page.getByTestId('sweep-offers').click();
    await notice(page, 'Swept: no offer had run out.').waitFor();
  }, 120_000);
});
