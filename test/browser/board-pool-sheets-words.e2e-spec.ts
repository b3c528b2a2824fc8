import type { Page } from 'playwright-core';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the board at a seat-pool venue is tested in a real browser');

/**
 * A restaurant's words: a party, its table, an offer. "Party size" stays: the workshop guide's own
 * column name for a group's size ("Party size | A whole number from 1 through 12").
 */
const RESTAURANT_WORDS = /\bpart(y|ies)\b(?! size)|\btables?\b|\boffers?\b|\boffered\b/i;

/**
 * A workshop organizer on a 390×844 phone (a 13-seat pool, 7-minute holds, Kolkata time) works the
 * board's sheets. The seats panel said "Next: Eru Group (party of 4) fits.", the Add to queue sheet
 * "Add a party to the queue", the queue code card "The party scans the square to follow its place",
 * Find by code "Find a party by their code" and "No party has this code now … find the party in the
 * queue.", and the Messages tab "No messages sent to guests yet." where a seat pool records no guest
 * message at all (its joins, holds, lapses and leaves send none). A restaurant keeps its words
 * (board.e2e-spec, guest-page.e2e-spec).
 */
d('a workshop organizer’s sheets speak of groups, on a 390×844 phone', () => {
  const file = phoneBoardFile('organizer');
  const { phone } = file;
  const leaks = async (page: Page, testId: string): Promise<{ text: string; leaks: boolean }> => {
    const text = await page.getByTestId(testId).innerText();
    return { text, leaks: RESTAURANT_WORDS.test(text) };
  };
  const noSidewaysScroll = async (page: Page): Promise<void> =>
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

  it('the seats panel, Add to queue, the queue code, Find by code and Messages say group', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Quandong Studio',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T09:40:00+05:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
    await joined(file.t, file.owner, v.id, { name: 'Eru Group', partySize: 4, email: 'eru@example.test' });
    const page = await phone(v.id);

    const seats = page.getByTestId('counts').locator('xpath=..');
    await seats.getByText('Next:').waitFor();
    expect(await seats.innerText()).toContain('Next: Eru Group (group of 4) fits.');
    expect(await seats.innerText()).not.toMatch(RESTAURANT_WORDS);

    await page.getByTestId('open-join').click();
    await page.getByTestId('desk-join').waitFor();
    expect(await page.getByTestId('desk-join').getAttribute('aria-label')).toBe('Add a group to the queue');
    expect(await leaks(page, 'desk-join')).toEqual({ text: expect.any(String), leaks: false });
    await page.fill('input[name=name]', 'Hine Whānau-Longname Group');
    await page.fill('input[name=email]', 'hine@example.test');
    await page.getByTestId('join-submit').click();
    await page.getByTestId('token-card').waitFor();
    const card = await page.getByTestId('token-card').innerText();
    expect(card).toContain('Number 2 in line.');
    expect(card).toContain('The group scans the square to follow its place; the code finds them under Find by code.');
    expect(await leaks(page, 'token-card')).toEqual({ text: card, leaks: false });
    expect(await page.getByTestId('token-qr').getAttribute('aria-label')).toBe("QR code of the group's queue link");
    await noSidewaysScroll(page);
    await screenshot(page, 'board-pool-sheets-token');
    await page.getByTestId('token-done').click();

    await page.getByTestId('open-lookup').click();
    await page.getByTestId('lookup').waitFor();
    expect(await page.getByTestId('lookup').getAttribute('aria-label')).toBe('Find a group by their code');
    await page.fill('input[name=token]', 'NOTA-CODE-0000');
    await page.getByTestId('lookup-submit').click();
    await page.getByTestId('lookup-error').waitFor();
    expect(await page.getByTestId('lookup-error').innerText()).toBe(
      'No group has this code now: it may be mistyped, already used, expired or replaced by a newer one. Check it, or find the group in the queue.',
    );
    expect(await leaks(page, 'lookup')).toEqual({ text: expect.any(String), leaks: false });
    await noSidewaysScroll(page);
    await screenshot(page, 'board-pool-sheets-lookup');
    await page.keyboard.press('Escape');

    await page.goto(`${file.t.baseUrl}/board/venues/${v.id}/messages`);
    const empty = page.locator('p.empty');
    await empty.waitFor();
    expect(await empty.innerText()).toBe(
      'No messages: a seat pool sends its groups no texts or emails. Each group follows its place on its queue page.',
    );
    // Nothing to search for or filter: no search box or filter buttons over the empty list.
    expect(await page.getByTestId('messages-recipient').count()).toBe(0);
    expect(await page.getByTestId('messages-failed-only').count()).toBe(0);
    await noSidewaysScroll(page);
    await screenshot(page, 'board-pool-sheets-messages');
  }, 120_000);

  it('a restaurant’s sheets keep their words: a party joins, scans its code and is found by it', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Kererū Kitchen',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T19:40:00+05:30',
      tables: [{ label: 'Patio 7', capacity: 4 }],
    });
    const page = await phone(v.id);
    await page.getByTestId('open-join').click();
    expect(await page.getByTestId('desk-join').getAttribute('aria-label')).toBe('Add a party to the queue');
    await page.fill('input[name=name]', 'Hemi Party');
    await page.fill('input[name=email]', 'hemi@example.test');
    await page.getByTestId('join-submit').click();
    await page.getByTestId('token-card').waitFor();
    expect(await page.getByTestId('token-card').innerText()).toContain(
      'The party scans the square to follow its place; the code finds them under Find by code.',
    );
    expect(await page.getByTestId('token-qr').getAttribute('aria-label')).toBe("QR code of the party's queue link");
    await page.getByTestId('token-done').click();
    await page.getByTestId('open-lookup').click();
    expect(await page.getByTestId('lookup').getAttribute('aria-label')).toBe('Find a party by their code');
    await page.fill('input[name=token]', 'NOTA-CODE-0000');
    await page.getByTestId('lookup-submit').click();
    expect(await page.getByTestId('lookup-error').innerText()).toBe(
      'No party has this code now: it may be mistyped, already used, expired or replaced by a newer one. Check it, or find the party in the queue.',
    );
  }, 120_000);
});
