import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the Messages tab is tested in a real browser');

/**
 * The morning after, a manager in Lisbon asks "did Marta get her text?" and types her name in the
 * Messages tab's search: it answered "No messages to Marta." over the four she was sent (a text and
 * an email on joining, and again when her table was offered), as it read only a phone or an email.
 */
d('Messages: a guest found by name, on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let v: Sandbox;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'find-name-owner');
    v = await sandboxVenue(t, owner, {
      name: 'Tasca do Largo',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-20T18:30:00Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end: '23:00', turnMinutes: 90 }],
      tables: [{ label: 'C4', capacity: 4 }],
      patch: { country: 'PT', policy: { holdSeconds: 480 } },
    });
    manager = await addMember(t, v.id, owner, 'manager');
    const marta = await joined(t, owner, v.id, {
      name: 'Marta Lopes',
      partySize: 3,
      email: 'marta.l@example.test',
      phone: '+351 913 222 111',
    });
    await joined(t, owner, v.id, { name: 'Rui Alves', partySize: 2, phone: '+351 916 000 111' });
    await joined(t, owner, v.id, { name: '100% Martins', partySize: 2, email: 'martins@example.test' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: marta.entry.id, entryVersion: marta.entry.version, tableIds: [v.tableIds.C4] })
      .expect(201);
    context = await newPhone(browser);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  /** The list's "to …" lines once they are `expected` (the search replaces the list a moment after Find). */
  async function listed(p: Page, expected: string[]): Promise<string[]> {
    let seen: string[] = [];
    for (const until = Date.now() + 10_000; Date.now() < until; await p.waitForTimeout(100)) {
      seen = (await p.getByTestId('message-to').allInnerTexts()).map((l) => l.split(' · ')[0] ?? l).sort();
      if (JSON.stringify(seen) === JSON.stringify([...expected].sort())) break;
    }
    return seen;
  }

  async function find(p: Page, typed: string): Promise<void> {
    await p.getByTestId('messages-recipient').fill(typed);
    await p.getByTestId('messages-find').click();
  }

  it('"marta" lists her texts and emails, not Rui\'s nor 100% Martins\'; a name nobody has finds none', async () => {
    const p = await context.newPage();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    await p.getByTestId('message').first().waitFor();

    const marta = [
      'to Marta Lopes (913 222 111)',
      'to Marta Lopes (913 222 111)',
      'to Marta Lopes (marta.l@example.test)',
      'to Marta Lopes (marta.l@example.test)',
    ];
    await find(p, 'marta');
    expect(await listed(p, marta)).toEqual([...marta].sort());
    expect(new Set(await p.getByTestId('message-channel').allInnerTexts())).toEqual(new Set(['Text', 'Email']));
    await screenshot(p, 'messages-find-name-phone');

    // A phone number still finds by number, as typed nationally.
    await find(p, '916 000 111');
    expect(await listed(p, ['to Rui Alves (916 000 111)'])).toEqual(['to Rui Alves (916 000 111)']);
    // "%" and "_" are characters of a name, not wildcards ("M_rta" is not Marta).
    await find(p, '100% m');
    expect(await listed(p, ['to 100% Martins (martins@example.test)'])).toEqual(['to 100% Martins (martins@example.test)']);
    await find(p, 'M_rta');
    await p.locator('.empty').filter({ hasText: 'M_rta' }).waitFor();
    await find(p, 'Beatriz');
    await p.locator('.empty').filter({ hasText: 'Beatriz' }).waitFor();
    expect(await p.locator('.empty').innerText()).toBe('No messages to Beatriz.');
    expect(await p.getByTestId('message').count()).toBe(0);
    expect(await p.getByTestId('messages-recipient').getAttribute('placeholder')).toBe('Name, phone or email');
  }, 120_000);
});
