import request from 'supertest';
import { NOT_SENT } from '@hostboard/outbox';
import {
  activeEntries,
  errorOf,
  joined,
  liveVenue,
  messages,
  refusal,
  uniq,
  type EntryBody,
  type Sandbox,
} from '../support/restaurant.js';
import { fakeSmsProvider, type FakeSmsProvider } from '../support/fake-sms-provider.js';
import { relayOn } from '../support/outbox-relay.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago

interface Detail {
  entry: EntryBody;
  contact: { email: string | null; phone: string | null };
}

/**
 * A host corrects a waiting party's email or phone ("gmail, not gmial"): the party's details read
 * gives the host the contact as stored, the correction keeps the place, and what the venue sends
 * next (and what it has not sent yet) goes to the corrected contact; the board's reach marker
 * stops calling the party unreached once the address that failed is no longer theirs.
 */
describe('a party’s contact, read and corrected by the host', () => {
  let t: TestApp;
  let owner: Staff;
  let host: Staff;
  let provider: FakeSmsProvider;
  let v: Sandbox;
  const clock = new ManualClock(FRIDAY_6PM);

  beforeAll(async () => {
    provider = await fakeSmsProvider();
    // No provider in the app itself: nothing relays behind the test's back.
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
  });
  beforeEach(async () => {
    clock.set(FRIDAY_6PM);
    v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 4 }] });
    host = await addMember(t, v.id, owner, 'host');
    provider.answer = () => 201;
    // The relay sends whatever any venue has recorded: what earlier tests left goes first.
    while ((await relay()) > 0);
    provider.received.length = 0;
    provider.taken().length = 0;
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const detail = (who: Staff, entryId: string, venueId = v.id): request.Test =>
    request(t.baseUrl).get(`/v1/venues/${venueId}/queue/${entryId}`).set(who.auth);
  const correct = (who: Staff, entryId: string, body: Record<string, unknown>, venueId = v.id): request.Test =>
    request(t.baseUrl).patch(`/v1/venues/${venueId}/queue/${entryId}`).set(who.auth).send(body);
  const board = async (): Promise<{ queue: Array<Record<string, unknown> & { id: string; reach: string }> }> =>
    (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      queue: Array<Record<string, unknown> & { id: string; reach: string }>;
    };

  /** The relay a worker started with the fake text provider would run, on this app's database. */
  const relay = (): Promise<number> => relayOn(t, provider.env).relay();

  it('the host reads the contact as stored and corrects it: place kept, read again, never on the board', async () => {
    const first = await joined(t, host, v.id, { name: 'Ahead', partySize: 2, email: `ahead-${uniq()}@example.test` });
    const typo = `dana-${uniq()}@GMIAL.com`;
    const dana = await joined(t, host, v.id, { name: 'Dana', partySize: 2, email: typo, phone: '+13125550140' });

    const read = (await detail(host, dana.entry.id).expect(200)).body as Detail;
    expect(read.contact).toEqual({ email: typo.toLowerCase(), phone: '+13125550140' });

    const fixed = typo.replace('GMIAL', 'gmail').toLowerCase();
    const res = await correct(host, dana.entry.id, { entryVersion: read.entry.version, email: fixed }).expect(200);
    expect((res.body as { entry: EntryBody }).entry).toEqual({ ...dana.entry, version: 2 });
    expect(((await detail(host, dana.entry.id).expect(200)).body as Detail).contact).toEqual({
      email: fixed,
      phone: '+13125550140',
    });
    // Its place is kept: still second, behind the party that joined first.
    expect((await activeEntries(t, host, v.id)).map((e) => e.id)).toEqual([first.entry.id, dana.entry.id]);

    // The board every tablet receives on every change names no contact.
    const snapshot = JSON.stringify(await board());
    expect(snapshot).toContain(dana.entry.id);
    for (const leak of [fixed, typo.toLowerCase(), '+13125550140', '"email"', '"phone"']) expect(snapshot).not.toContain(leak);
  });

  it("a member of another venue finds neither the party's contact nor the party to correct", async () => {
    const p = await joined(t, host, v.id, { name: 'Private', partySize: 2, email: `private-${uniq()}@example.test` });
    const stranger = await signUp(t, 'stranger');
    const theirs = await createVenue(t, stranger, { preset: 'restaurant' });
    const read = await detail(stranger, p.entry.id, theirs.id);
    expect(refusal(read)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(JSON.stringify(read.body)).not.toContain('private-');
    // Through this venue's path, a non-member is not let in either.
    expect((await detail(stranger, p.entry.id)).status).toBe(404);
    const changed = await correct(stranger, p.entry.id, { entryVersion: 1, email: 'someone@example.test' }, theirs.id);
    expect(refusal(changed)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(((await detail(host, p.entry.id).expect(200)).body as Detail).contact.email).toMatch(/^private-/);
  });

  it('a text not yet sent goes to the corrected number; a removed number is not texted at all', async () => {
    const wrong = '+13125550141';
    const right = '+13125550142';
    const p = await joined(t, host, v.id, { name: 'Misheard', partySize: 2, phone: wrong });
    const both = await joined(t, host, v.id, {
      name: 'Both',
      partySize: 2,
      email: `both-${uniq()}@example.test`,
      phone: '+13125550143',
    });
    await correct(host, p.entry.id, { entryVersion: 1, phone: right }).expect(200);
    await correct(host, both.entry.id, { entryVersion: 1, phone: null }).expect(200);

    expect(await relay()).toBe(1);
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
    const list = await messages(t, owner, v.id);
    expect(list.find((m) => m.entryId === p.entry.id)).toMatchObject({ to: right, status: 'sent' });
    // The removed number's text stays recorded, with the reason, and its email is untouched.
    expect(list.filter((m) => m.entryId === both.entry.id).map((m) => [m.channel, m.status, m.notSentReason])).toEqual(
      expect.arrayContaining([
        ['sms', 'recorded', NOT_SENT.contactRemoved],
        ['email', 'recorded', undefined],
      ]),
    );
  });

  it('a text with the provider while the host corrects the number: the provider’s retryable refusal is retried to the corrected number, or not at all for a removed one', async () => {
    const wrong = '+13125550148';
    const right = '+13125550149';
    const dropped = '+13125550150';
    const fixed = await joined(t, host, v.id, { name: 'Caught', partySize: 2, phone: wrong });
    const removed = await joined(t, host, v.id, {
      name: 'Dropped',
      partySize: 2,
      email: `dropped-${uniq()}@example.test`,
      phone: dropped,
    });
    // Each correction is made while its text is with the provider, which then answers "try later".
    const corrections: unknown[] = [];
    provider.answer = async (form) => {
      const to = form.get('To');
      if (to === wrong) corrections.push(await correct(host, fixed.entry.id, { entryVersion: 1, phone: right }).expect(200));
      if (to === dropped) corrections.push(await correct(host, removed.entry.id, { entryVersion: 1, phone: null }).expect(200));
      return to === wrong || to === dropped ? 503 : 201;
    };
    await relay();
    expect(corrections).toHaveLength(2);
    expect(provider.taken()).toEqual([]);

    clock.set(new Date(FRIDAY_6PM.getTime() + 60_000)); // past the first backoff
    provider.answer = () => 201;
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
    const list = await messages(t, owner, v.id);
    expect(list.find((m) => m.entryId === fixed.entry.id)).toMatchObject({ to: right, status: 'sent' });
    expect(list.find((m) => m.entryId === removed.entry.id && m.channel === 'sms')).toMatchObject({
      to: dropped,
      status: 'recorded',
      notSentReason: NOT_SENT.contactRemoved,
    });
  });

  it('a text that failed to a wrong number: after the correction the board no longer calls the party unreached, and the table-ready text reaches the new number', async () => {
    const wrong = '+13125550144';
    const right = '+13125550145';
    const p = await joined(t, host, v.id, { name: 'Typo', partySize: 2, phone: wrong });
    // The provider refuses the number for good (as Twilio does an unreachable one).
    provider.answer = (form) => (form.get('To') === wrong ? 400 : 201);
    await relay();
    expect((await messages(t, owner, v.id)).find((m) => m.entryId === p.entry.id)).toMatchObject({ status: 'failed' });
    expect((await board()).queue.find((e) => e.id === p.entry.id)?.reach).toBe('failed');

    await correct(host, p.entry.id, { entryVersion: 1, phone: right }).expect(200);
    // Nothing was sent to the new number yet, but the failure was to a number the party no longer has.
    expect((await board()).queue.find((e) => e.id === p.entry.id)?.reach).toBe('ok');
    // The queueing text the wrong number was meant to carry goes to the corrected one.
    await relay();
    expect(provider.taken().map((r) => [r.form.get('To'), r.form.get('Body')?.includes('you are in the queue')])).toEqual([
      [right, true],
    ]);
    provider.taken().length = 0;

    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: 2, tableIds: [v.tableIds['T1']] })
      .expect(201);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
    expect((await messages(t, owner, v.id)).find((m) => m.template === 'table-ready')).toMatchObject({
      to: right,
      status: 'sent',
    });
    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(host.auth).expect(200);

    // Corrected back to the number that failed: the failure counts again.
    const version = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: version, phone: wrong }).expect(200);
    expect((await board()).queue.find((e) => e.id === p.entry.id)?.reach).toBe('failed');
  });

  it('a table-ready text that failed to a wrong number: the corrected number is sent the offer with what is left of its hold, then its withdrawal', async () => {
    const wrong = '+13125550146';
    const right = '+13125550147';
    const p = await joined(t, host, v.id, { name: 'Misheard', partySize: 2, phone: wrong });
    provider.answer = (form) => (form.get('To') === wrong ? 400 : 201);
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: 1, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const expiresAt = (offered.body as { offer: { expiresAt: string } }).offer.expiresAt;
    await relay();
    expect((await messages(t, owner, v.id)).find((m) => m.template === 'table-ready')).toMatchObject({
      to: wrong,
      status: 'failed',
    });
    // The guest comes to the desk a minute and a half later: "I never got a text".
    clock.advance(90_000);
    const version = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: version, phone: right }).expect(200);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
    // What is left of the hold, rounded down, and the same deadline as the first text.
    const left = Math.floor((Date.parse(expiresAt) - clock.now().getTime()) / 60_000);
    const resent = provider.taken()[0]?.form.get('Body') ?? '';
    expect(resent).toContain(`Please confirm within ${left} minute`);
    expect(resent).toContain('6:05 PM');
    // A second correction (the name) sends nothing more.
    const named = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: named, name: 'Misheard Again' }).expect(200);
    await relay();
    expect(provider.taken()).toHaveLength(1);

    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(host.auth).expect(200);
    await relay();
    // The number that heard of the offer hears of its withdrawal.
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right, right]);
    expect((await messages(t, owner, v.id)).find((m) => m.template === 'offer-withdrawn')).toMatchObject({
      to: right,
      status: 'sent',
    });
  });

  it('a table-ready text delivered to a wrong number: the corrected number gets it too; a text still waiting goes only once', async () => {
    const wrong = '+13125550148';
    const right = '+13125550149';
    const p = await joined(t, host, v.id, { name: 'Wrong Digit', partySize: 2, phone: wrong });
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: 1, tableIds: [v.tableIds['T1']] })
      .expect(201);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([wrong, wrong]);
    clock.advance(30_000);
    const version = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: version, phone: right }).expect(200);
    // Corrected twice before the relay runs: the text waiting for the provider follows, one of it.
    clock.advance(10_000);
    const again = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    const other = '+13125550150';
    await correct(host, p.entry.id, { entryVersion: again, phone: other }).expect(200);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([wrong, wrong, other]);
    expect(provider.taken()[2]?.form.get('Body')).toContain('Please confirm within 4 minutes');
    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(host.auth).expect(200);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([wrong, wrong, other, other]);
    // A party no longer holding an offer is sent no table-ready text on a correction: back in the
    // queue, its corrected number gets the queueing text it never had.
    const after = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: after, phone: right }).expect(200);
    await relay();
    expect(provider.taken()).toHaveLength(5);
    expect(provider.taken()[4]?.form.get('To')).toBe(right);
    expect(provider.taken()[4]?.form.get('Body')).toContain('you are in the queue');
  });

  it('a number corrected and then corrected back before the relay ran: the table-ready text it already had is not sent to it again', async () => {
    const first = '+13125550151';
    const typo = '+13125550152';
    const p = await joined(t, host, v.id, { name: 'Undone', partySize: 2, phone: first });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: 1, tableIds: [v.tableIds['T1']] })
      .expect(201);
    await relay();
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([first, first]);
    // The host types a wrong number into the party sheet, sees it and puts the right one back.
    const version = async (): Promise<number | undefined> =>
      (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
    await correct(host, p.entry.id, { entryVersion: await version(), phone: typo }).expect(200);
    await correct(host, p.entry.id, { entryVersion: await version(), phone: first }).expect(200);
    await relay();
    // The first number had its table-ready text: the one recorded for the typo does not follow it back.
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([first, first]);
    const readyTexts = (await messages(t, owner, v.id)).filter((m) => m.entryId === p.entry.id && m.template === 'table-ready');
    expect(readyTexts.filter((m) => m.status === 'sent').map((m) => m.to)).toEqual([first]);
  });

  it('a table-ready text with the provider while the host corrects the number: the corrected number gets it once, not the retry as well', async () => {
    const wrong = '+13125550153';
    const right = '+13125550154';
    const p = await joined(t, host, v.id, { name: 'Mid Send', partySize: 2, phone: wrong });
    await relay();
    provider.taken().length = 0;
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: 1, tableIds: [v.tableIds['T1']] })
      .expect(201);
    // The guest says the number is wrong while its table-ready text is with the provider, which then answers "try later".
    let corrected = false;
    provider.answer = async (form) => {
      if (form.get('To') !== wrong) return 201;
      if (!corrected) {
        const version = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id)?.version;
        await correct(host, p.entry.id, { entryVersion: version, phone: right }).expect(200);
        corrected = true;
      }
      return 503;
    };
    await relay();
    expect(corrected).toBe(true);
    clock.advance(60_000); // past the first backoff, well within the hold
    provider.answer = () => 201;
    while ((await relay()) > 0);
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
  });

  it('a workshop group holding seats, its number corrected: no "your table is ready" text, which a pool venue never sends', async () => {
    const pool = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 10 });
    const group = await joined(t, owner, pool.id, { name: 'Group W', partySize: 3, phone: '+13125550155' });
    await request(t.baseUrl).post(`/v1/venues/${pool.id}/promotions`).set(owner.auth).send({}).expect(201);
    const version = (await activeEntries(t, owner, pool.id)).find((e) => e.id === group.entry.id)?.version;
    await correct(owner, group.entry.id, { entryVersion: version, phone: '+13125550156' }, pool.id).expect(200);
    expect((await messages(t, owner, pool.id)).map((m) => m.template)).toEqual([]);
  });

  it('a name and contact corrected while the party holds an offer follow it to the table and the list to seat', async () => {
    const email = `jon-${uniq()}@example.test`;
    const p = await joined(t, host, v.id, { name: 'Jon Smit', partySize: 2, email });
    const offer = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(host.auth)
        .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds['T1']] })
        .expect(201)
    ).body as { offer: { id: string } };
    const [offered] = await activeEntries(t, host, v.id);
    const fixed = `john-${uniq()}@example.test`;
    await correct(host, p.entry.id, { entryVersion: offered?.version, name: 'John Smith', email: fixed }).expect(200);
    type Board = { tables: Array<{ label: string; placement: { name: string } | null }>; toSeat?: Array<{ name: string }> };
    const floor = async (): Promise<Board> =>
      (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as Board;
    expect((await floor()).tables.find((x) => x.label === 'T1')?.placement?.name).toBe('John Smith');

    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.offer.id}/accept`).set(host.auth).send({}).expect(200);
    const seated = await floor();
    expect(seated.tables.find((x) => x.label === 'T1')?.placement?.name).toBe('John Smith');
    expect(seated.toSeat?.map((x) => x.name)).toEqual(['John Smith']);
    const bookings = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
      name: string;
    }>;
    expect(bookings.map((b) => b.name)).toEqual(['John Smith']);
  });

  it('the refusals a host sees, in words', async () => {
    const taken = `taken-${uniq()}@example.test`;
    await joined(t, host, v.id, { name: 'Other', partySize: 2, email: taken });
    const p = await joined(t, host, v.id, { name: 'Sam', partySize: 2, email: `sam-${uniq()}@example.test` });
    const fix = (body: Record<string, unknown>): request.Test => correct(host, p.entry.id, { entryVersion: 1, ...body });
    expect(errorOf(await fix({ email: 'sam@gmail' }))).toMatchObject({
      code: 'VALIDATION',
      message: 'Email must be an email address, such as name@example.com',
    });
    expect(errorOf(await fix({ phone: '+19005550123' }))).toMatchObject({
      code: 'VALIDATION',
      message: 'This number cannot receive text messages; give a mobile number.',
    });
    expect(errorOf(await fix({ email: taken }))).toMatchObject({
      code: 'WAITLIST_DUPLICATE',
      message: 'This contact is already in the queue for today.',
    });
    expect(errorOf(await fix({ email: null }))).toMatchObject({
      code: 'VALIDATION',
      message: 'A queue party needs an email or a phone number.',
    });
    await fix({ name: 'Samuel' }).expect(200);
    expect(errorOf(await fix({ email: `sam2-${uniq()}@example.test` }))).toMatchObject({
      code: 'WAITLIST_STALE',
      details: { currentVersion: 2 },
    });
  });
});
