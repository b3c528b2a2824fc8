import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, uniq, type EntryBody } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
] as const;
const STEP = 8_000;

const d = describeWithChromium('the board page is tested in a real browser');

interface Detail {
  entry: EntryBody;
  contact: { email: string | null; phone: string | null };
}

/**
 * "No, it's gmail, not gmial": the host opens the party's sheet, sees the email and phone the party
 * gave (read when the sheet opens; the board carries none), and corrects the email. Each refusal is
 * said in words at the field or under the form: a bad address, a contact another party holds, a
 * stale read (another screen corrected the phone first), both contacts cleared at a table venue.
 * An unchanged form sends nothing.
 */
d('correcting a party’s contact on the board', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** The host signed in on a fresh device of that size, on the venue's board. */
  async function boardOf(host: Staff, venueId: string, vp: (typeof VIEWPORTS)[number]): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      hasTouch: true,
      isMobile: vp.name === 'phone',
      locale: 'en-US',
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${vp.name}: ${e.message}`));
    await openVenueBoard(page, t.baseUrl, host, venueId);
    return page;
  }

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height} (${vp.name})`, async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'T1', capacity: 4 }] });
      const host = await addMember(t, v.id, owner, 'host');
      const taken = `taken-${uniq()}@example.test`;
      await joined(t, host, v.id, { name: 'Walter Skinner', partySize: 2, email: taken });
      const typo = `dana-${uniq()}@gmial.com`;
      const fixed = typo.replace('gmial', 'gmail');
      const dana = await joined(t, host, v.id, { name: 'Dana Scully', partySize: 2, email: typo, phone: '+13125550140' });
      const api = (): ReturnType<typeof request> => request(t.baseUrl);
      const detail = async (): Promise<Detail> =>
        (await api().get(`/v1/venues/${v.id}/queue/${dana.entry.id}`).set(host.auth).expect(200)).body as Detail;

      const page = await boardOf(host, v.id, vp);
      const row = page.locator('[data-testid=entry]', { hasText: 'Dana Scully' });
      const sheet = page.getByTestId('entry-sheet');
      const email = sheet.locator('input[name=entryEmail]');
      const phone = sheet.locator('input[name=entryPhone]');
      const save = sheet.getByTestId('entry-save');
      const formError = sheet.getByTestId('entry-error');
      const openSheet = async (): Promise<void> => {
        await row.getByTestId('entry-more').click();
        // Read when the sheet opens (the board snapshot has no contacts): the fields wait for it.
        await sheet.locator('input[name=entryEmail]:enabled').waitFor({ timeout: STEP });
      };

      // The contact as stored, the phone as the host would say it.
      await openSheet();
      expect(await email.inputValue()).toBe(typo);
      // Once the page knows the venue's country (its hint says so), the number reads the US way.
      await sheet.getByTestId('entry-phone-hint').getByText('The number as the guest says it').waitFor({ timeout: STEP });
      expect(await phone.inputValue()).toBe('(312) 555-0140');
      await noSidewaysScroll(page, vp.name);
      await screenshot(page, `entry-contacts-${vp.name}-1-opened`);

      // A bad address, said at the field.
      await email.fill('dana@gmail');
      await save.click();
      await sheet
        .getByTestId('entry-email-error')
        .getByText('Email must be an email address, such as name@example.com')
        .waitFor({ timeout: STEP });
      await screenshot(page, `entry-contacts-${vp.name}-2-bad-email`);

      // A number that cannot take a text (a US premium-rate line): the server's words, at the phone.
      await email.fill(fixed);
      await phone.fill('(900) 555-0123');
      await save.click();
      await sheet
        .getByTestId('entry-phone-hint')
        .getByText('This number cannot receive text messages; give a mobile number.')
        .waitFor({ timeout: STEP });
      await screenshot(page, `entry-contacts-${vp.name}-3-cannot-text`);
      // Typed back as it was: not a change.
      await phone.fill('312 555 0140');

      // Another party's address: the spec's words, and whose it is.
      await email.fill(taken.toUpperCase());
      await save.click();
      await formError
        .getByText("This contact is already in the queue for today. It is Walter Skinner's, #1 in the queue.")
        .waitFor({ timeout: STEP });
      await screenshot(page, `entry-contacts-${vp.name}-4-taken`);

      // Another screen corrects the phone first: the save is refused as stale, said in words; the
      // phone (not changed here) shows the new number, the typed email is kept.
      await api()
        .patch(`/v1/venues/${v.id}/queue/${dana.entry.id}`)
        .set(owner.auth)
        .send({ entryVersion: 1, phone: '+13125550149' })
        .expect(200);
      await email.fill(fixed);
      await save.click();
      await formError.getByText('Someone changed this party on another screen a moment ago (phone).').waitFor({ timeout: STEP });
      expect(await phone.inputValue()).toBe('(312) 555-0149');
      expect(await email.inputValue()).toBe(fixed);
      await noSidewaysScroll(page, `${vp.name} stale`);
      await screenshot(page, `entry-contacts-${vp.name}-5-stale`);

      // Saved again: the server has it, the place is kept.
      await save.click();
      await page
        .locator('[data-testid=notice]', { hasText: `Dana Scully saved: email now ${fixed}.` })
        .waitFor({ timeout: STEP });
      await sheet.waitFor({ state: 'detached', timeout: STEP });
      const after = await detail();
      expect(after.contact).toEqual({ email: fixed, phone: '+13125550149' });
      expect(after.entry).toMatchObject({
        version: 3,
        queueSequence: dana.entry.queueSequence,
        receivedAt: dana.entry.receivedAt,
      });
      await screenshot(page, `entry-contacts-${vp.name}-6-saved`);

      // An unchanged form sends nothing: no new version, no board change.
      const boardVersion = async (): Promise<number> =>
        ((await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as { version: number }).version;
      const before = await boardVersion();
      await openSheet();
      expect(await email.inputValue()).toBe(fixed);
      await save.click();
      await page.locator('[data-testid=notice]', { hasText: 'Nothing changed.' }).waitFor({ timeout: STEP });
      await sheet.waitFor({ state: 'detached', timeout: STEP });
      expect(await boardVersion()).toBe(before);
      expect((await detail()).entry.version).toBe(3);

      // A table venue needs one way to reach the party: clearing both is refused, in the spec's words.
      await openSheet();
      await email.fill('');
      await phone.fill('');
      await save.click();
      await sheet.getByText('A queue party needs an email or a phone number.').waitFor({ timeout: STEP });
      await noSidewaysScroll(page, `${vp.name} no contact`);
      await screenshot(page, `entry-contacts-${vp.name}-7-no-contact`);
      expect((await detail()).contact).toEqual({ email: fixed, phone: '+13125550149' });
      expect(errors).toEqual([]);
    }, 120_000);
  }

  it('notes and tags with the party open on two screens (390×844): a tag saved here keeps the note written there, and a note changed on both is shown before it is replaced', async () => {
    const v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'T1', capacity: 4 }] });
    const host = await addMember(t, v.id, owner, 'host');
    const ana = await joined(t, host, v.id, { name: 'Ana Lima', partySize: 2, email: `ana-${uniq()}@example.test` });
    const details = `/v1/venues/${v.id}/queue/${ana.entry.id}/details`;
    const elsewhere = (body: object): request.Test => request(t.baseUrl).put(details).set(owner.auth).send(body).expect(200);
    const stored = async (): Promise<{ note: string | null; tags: string[] }> => {
      const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
        queue: Array<{ id: string; note: string | null; tags: string[] }>;
      };
      const row = board.queue.find((e) => e.id === ana.entry.id);
      return { note: row?.note ?? null, tags: row?.tags ?? [] };
    };
    await elsewhere({ note: 'Birthday', tags: [] });

    const page = await boardOf(host, v.id, VIEWPORTS[0]);
    const row = page.locator('[data-testid=entry]', { hasText: 'Ana Lima' });
    const sheet = page.getByTestId('entry-sheet');
    const note = sheet.locator('input[name=note]');
    await row.getByText('Birthday').waitFor({ timeout: STEP });

    // This phone opens the party; the door's tablet then adds to the note; this phone only taps VIP.
    await row.getByTestId('entry-more').click();
    await sheet.locator('input[name=entryEmail]:enabled').waitFor({ timeout: STEP });
    expect(await note.inputValue()).toBe('Birthday');
    await elsewhere({ note: 'Birthday, window seat', noteWas: 'Birthday' });
    await sheet.locator('[data-tag=vip]').click();
    await sheet.getByTestId('entry-save').click();
    await sheet.waitFor({ state: 'detached', timeout: STEP });
    expect(await stored()).toEqual({ note: 'Birthday, window seat', tags: ['vip'] });
    // Its "saved" notice fades by itself; gone, it covers nothing of the sheet below.
    await page.locator('[data-testid=notice]', { hasText: 'Ana Lima saved.' }).waitFor({ state: 'detached', timeout: STEP });

    // Both change the note: the phone is told what the other screen wrote, and its typing is kept.
    await row.getByText('Birthday, window seat').waitFor({ timeout: STEP });
    await row.getByTestId('entry-more').click();
    await sheet.locator('input[name=entryEmail]:enabled').waitFor({ timeout: STEP });
    await elsewhere({ note: 'Cake at 9', noteWas: 'Birthday, window seat' });
    await note.fill('Birthday, window seat, high chair');
    await sheet.getByTestId('entry-save').click();
    await sheet
      .getByTestId('entry-note-error')
      .getByText('Another screen changed this note to “Cake at 9” while you were typing. Save again to replace it with yours.')
      .waitFor({ timeout: STEP });
    expect(await note.inputValue()).toBe('Birthday, window seat, high chair');
    expect((await stored()).note).toBe('Cake at 9');
    await noSidewaysScroll(page, 'note conflict');
    await screenshot(page, 'entry-notes-phone-conflict');
    await sheet.getByTestId('entry-save').click();
    await sheet.waitFor({ state: 'detached', timeout: STEP });
    expect(await stored()).toEqual({ note: 'Birthday, window seat, high chair', tags: ['vip'] });
    expect(errors).toEqual([]);
  }, 120_000);

  it('Remove from queue tells the host the party was removed, not that it left (the party is told the same)', async () => {
    const v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'T1', capacity: 4 }] });
    const host = await addMember(t, v.id, owner, 'host');
    const party = await joined(t, host, v.id, { name: 'Fox Mulder', partySize: 2, email: `fox-${uniq()}@example.test` });
    const page = await boardOf(host, v.id, VIEWPORTS[1]);
    const row = page.locator('[data-testid=entry]', { hasText: 'Fox Mulder' });
    await row.getByTestId('entry-more').click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.getByTestId('cancel').click();
    await sheet.getByTestId('cancel').getByText('Tap again to remove').waitFor({ timeout: STEP });
    await sheet.getByTestId('cancel').click();
    await page.locator('[data-testid=notice]', { hasText: 'Fox Mulder was removed from the queue.' }).waitFor({ timeout: STEP });
    const stored = await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${party.entry.id}`).set(host.auth).expect(200);
    expect((stored.body as Detail).entry.status).toBe('cancelled');
    expect(errors).toEqual([]);
  }, 120_000);
});

/** The page is never wider than the screen. */
async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [number, number];
  expect({ where, scroll }).toEqual({ where, scroll: Math.min(scroll, inner) });
}
