import type { Browser, BrowserContext } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the Messages tab is tested in a real browser');

/**
 * A manager who leaves is removed by the owner while the Messages tab is open on the office
 * tablet: its next read is refused, and the tab showed the refusal above every guest's name,
 * number and text, read minutes before, for as long as it stayed open.
 */
d('the Messages tab of a manager removed from the staff', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-04T19:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end: '23:30', turnMinutes: 45 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Inês Guest', partySize: 2, phone: '+351912345678' })
      .expect(201);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  it('drops the guests’ messages from the screen once the server refuses the manager', async () => {
    const manager = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'manager'));
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    await signInOnBoard(p, t.baseUrl, manager, `/board/venues/${v.id}/messages`);
    await p.getByText('Inês Guest').first().waitFor({ timeout: 10_000 });

    await request(t.baseUrl).delete(`/v1/venues/${v.id}/members/${manager.userId}`).set(owner.auth).expect(204);
    // The tab reads the newest page every 5 s: the refusal comes with the next read.
    await p.getByTestId('messages-error').waitFor({ timeout: 15_000 });
    // Said as the board says it, not "The venue was not found." (the venue is still there).
    expect(await p.getByTestId('messages-error').textContent()).toBe(
      'You are no longer on the staff of this venue. Ask a manager if this is a mistake.',
    );
    await p.getByText('Inês Guest').first().waitFor({ state: 'detached', timeout: 5_000 });
    await screenshot(p, 'messages-access-ended');
    const text = await p.locator('main').innerText();
    expect(text).not.toContain('+351912345678');
    expect(await p.getByTestId('message').count()).toBe(0);
  });
});
