import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the board at a seat-pool venue is tested in a real browser');

/** A restaurant's word for who queues ("Party size" stays: the workshop guide's own column name). */
const PARTY = /\bpart(y|ies)\b(?! size)/i;

/**
 * A workshop organizer on a 390×844 phone (13 seats, 7-minute holds, Kolkata time, one entry per
 * contact) corrects a group in its More sheet while a second screen corrected it first, and adds a
 * group whose email is already in the queue. The sheet said "Someone changed this party on another
 * screen a moment ago", and Add to queue "They are in the queue as Eru Group, party of 4, …", on a
 * board whose rows, search and seats panel say group. A restaurant keeps "party" (entry-contacts,
 * board-desk).
 */
d('a workshop organizer’s corrections and refused joins speak of groups', () => {
  const file = phoneBoardFile('organizer');
  const { phone } = file;

  it('a correction made meanwhile on another screen, and a contact already queued, are told in groups', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Quandong Studio',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T09:40:00+05:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420, oneEntryPerContact: true } },
    });
    const eru = await joined(file.t, file.owner, v.id, { name: 'Eru Group', partySize: 4, email: 'eru@example.test' });
    const page = await phone(v.id);

    await page.locator('[data-testid=entry] [data-testid=entry-more]').first().click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.waitFor();
    await page.locator('input[name=entrySize]').waitFor();
    // Another screen renames the group after this sheet read it.
    await request(file.t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${eru.entry.id}`)
      .set(file.owner.auth)
      .send({ entryVersion: eru.entry.version, name: 'Eru Whānau Group' })
      .expect(200);
    await page.fill('input[name=entrySize]', '5');
    await page.getByTestId('entry-save').click();
    const said = page.getByTestId('entry-error');
    await said.waitFor();
    expect(await said.innerText()).toMatch(/^Someone changed this group on another screen a moment ago/);
    expect(await said.innerText()).not.toMatch(PARTY);
    await screenshot(page, 'board-pool-entry-stale');
    await page.keyboard.press('Escape');

    await page.getByTestId('open-join').click();
    await page.fill('input[name=name]', 'Eru Again');
    await page.fill('input[name=email]', 'eru@example.test');
    await page.getByTestId('join-submit').click();
    const refused = page.getByTestId('desk-join').getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('They are in the queue as Eru Whānau Group, group of 4, number 1 in line.');
    expect(await refused.innerText()).not.toMatch(PARTY);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'board-pool-join-duplicate');
  }, 120_000);

  /**
   * A seat pool sends its groups no message at all (its Messages tab says so), so a group that gave
   * no phone or email is reached like every other: on its queue page and in person. The rows marked
   * it "no contact" in the warning colour ("gave no contact the venue sends messages on: tell them in
   * person"), the demo workshop's first screen on every row, though the desk form calls the contact
   * optional there. 11 seats, 9-minute holds, Kathmandu time.
   */
  it('a group that gave no contact is not marked unreached at a seat pool', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Sal Studio',
      timeZone: 'Asia/Kathmandu',
      clock: '2026-12-11T10:20:00+05:45',
      preset: 'workshop',
      poolCapacity: 11,
      patch: { policy: { holdSeconds: 540 } },
    });
    const bare = await joined(file.t, file.owner, v.id, { name: 'Bishnu Group', partySize: 3 });
    const mailed = await joined(file.t, file.owner, v.id, { name: 'Sita Group', partySize: 2, email: 'sita@example.test' });
    const queue = (await request(file.t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(file.owner.auth).expect(200)).body as {
      entries: Array<{ id: string; reach?: string }>;
    };
    // The API says no reach at all for a seat pool's groups (not `none`, unreachable): it sends none any message.
    const bareRow = queue.entries.find((e) => e.id === bare.entry.id);
    expect(bareRow).toBeDefined();
    expect(bareRow).not.toHaveProperty('reach');
    for (const which of ['phone', 'desktop'] as const) {
      const page = which === 'phone' ? await phone(v.id) : await file.page('desktop');
      if (which === 'desktop') {
        await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
        await boardLive(page);
      }
      const row = (id: string) => page.locator(`[data-testid=entry][data-entry-id="${id}"]`);
      await row(mailed.entry.id).waitFor();
      await row(bare.entry.id).waitFor();
      expect(await row(bare.entry.id).locator('[data-testid=reach]').count()).toBe(0);
      expect(await page.getByTestId('queue').innerText()).not.toContain('no contact');
      await screenshot(page, `board-pool-no-contact-${which}`);
    }
  }, 120_000);
});
