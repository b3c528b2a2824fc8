import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EVERY_DAY, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the Messages tab is tested in a real browser');

/**
 * The morning after, a manager taps "Not delivered" to see which guests did not hear from the venue.
 * During the pilot no provider is set up, so no text or email left the building; the tab answered
 * "No undelivered messages." all the same (it listed only messages a provider had refused), and read
 * as if every guest had their text.
 */
d('"Not delivered" on the Messages tab', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // No SMS_URL and no SMTP_URL: the pilot's set-up.
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'messages');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-04T19:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end: '23:30', turnMinutes: 45 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    for (const who of ['refused', 'sent', 'never']) {
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue`)
        .set(owner.auth)
        .send({ name: `Guest ${who}`, partySize: 2, email: `${who}@example.test` })
        .expect(201);
      ids[who] = (r.body as { entry: { id: string } }).entry.id;
    }
    // What a relay with a provider would have left: one email refused for good, one handed over.
    const ds = t.app.get<DataSource>(getDataSourceToken());
    await ds.query(
      `UPDATE outbox_messages SET status = 'failed', failure_reason = 'the provider refused the address' WHERE entry_id = $1`,
      [ids['refused']],
    );
    await ds.query(`UPDATE outbox_messages SET status = 'sent', sent_at = now() WHERE entry_id = $1`, [ids['sent']]);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function messagesTab(size: { width: number; height: number }): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    await p.setViewportSize(size);
    await signInToVenueList(p, t.baseUrl, owner, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    await p.getByTestId('message').nth(2).waitFor();
    return p;
  }

  it.each([
    ['tablet', { width: 1024, height: 768 }],
    ['phone', { width: 390, height: 844 }],
  ])('lists every message no guest got, refused or never to be sent, and not the one sent (%s)', async (name, size) => {
    const p = await messagesTab(size);
    await p.getByTestId('messages-failed-only').click();
    await p.getByText('Guest never').first().waitFor({ timeout: 10_000 });
    await screenshot(p, `messages-undelivered-${name}`);
    const text = await p.locator('main').innerText();
    expect(text).not.toContain('No undelivered messages.');
    expect(text).toContain('Guest refused');
    expect(text).toContain('Guest never');
    expect(text).toContain('No email provider is set up, so emails are only recorded here: they will not be sent.');
    expect(text).not.toContain('Guest sent');
    expect(await p.getByTestId('message').count()).toBe(2);
  });
});
