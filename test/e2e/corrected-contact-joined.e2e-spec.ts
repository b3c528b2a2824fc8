import request from 'supertest';
import { joined, liveVenue, messages, refusal, uniq, type Sandbox } from '../support/restaurant.js';
import { fakeSmsProvider, type FakeSmsProvider } from '../support/fake-sms-provider.js';
import { relayOn } from '../support/outbox-relay.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago

/**
 * A host corrects the mistyped number of a waiting party: the stranger at the typo had the queueing
 * text, the party had nothing. The corrected number is sent the queueing text (recorded like any
 * other message), once: not again on a retried correction, nor when the number did not change.
 */
describe('a waiting party’s corrected number gets the queueing text', () => {
  let t: TestApp;
  let owner: Staff;
  let host: Staff;
  let provider: FakeSmsProvider;
  let v: Sandbox;
  const clock = new ManualClock(FRIDAY_6PM);

  beforeAll(async () => {
    provider = await fakeSmsProvider();
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
    v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 4 }] });
    host = await addMember(t, v.id, owner, 'host');
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const correct = (entryId: string, body: Record<string, unknown>): request.Test =>
    request(t.baseUrl).patch(`/v1/venues/${v.id}/queue/${entryId}`).set(host.auth).send(body);
  const relay = (): Promise<number> => relayOn(t, provider.env).relay();
  const joinedTexts = async (entryId: string) =>
    (await messages(t, owner, v.id)).filter((m) => m.entryId === entryId && m.template === 'queue-joined' && m.channel === 'sms');

  it('the stranger had the text; after the correction the right number gets it too, with the quote the party was given', async () => {
    const wrong = '+13125550161';
    const right = '+13125550162';
    await joined(t, host, v.id, { name: 'Ahead', partySize: 2, email: `ahead-${uniq()}@example.test` });
    const p = await joined(t, host, v.id, { name: 'Typo', partySize: 2, phone: wrong });
    expect(await relay()).toBeGreaterThan(0);
    expect(provider.taken().map((r) => r.form.get('To'))).toContain(wrong);
    provider.taken().length = 0;

    clock.set(new Date(FRIDAY_6PM.getTime() + 10 * 60_000));
    await correct(p.entry.id, { entryVersion: 1, phone: right }).expect(200);
    // A retry of the same correction (its answer lost) is stale: nothing is recorded again.
    const again = await correct(p.entry.id, { entryVersion: 1, phone: right });
    expect(refusal(again)).toEqual({ status: 409, code: 'WAITLIST_STALE' });
    // The same number "corrected" to itself changes nothing and sends nothing.
    await correct(p.entry.id, { entryVersion: 2, phone: right }).expect(200);

    const texts = await joinedTexts(p.entry.id);
    expect(texts.map((m) => m.to)).toEqual(expect.arrayContaining([wrong, right]));
    expect(texts.filter((m) => m.to === right)).toHaveLength(1);
    const sent = texts.find((m) => m.to === right);
    expect(sent?.body).toContain('Test Kitchen: you are in the queue for 2 (joined 6:00 PM');
    expect(sent?.body).toContain(`Queue position when you joined: ${p.position}.`);
    expect(sent?.body).toContain(`Quoted wait about ${p.quotedWaitMinutes} min (approx)`);

    expect(await relay()).toBe(1);
    expect(provider.taken().map((r) => r.form.get('To'))).toEqual([right]);
    expect((await joinedTexts(p.entry.id)).find((m) => m.to === right)?.status).toBe('sent');
  });

  it('a text not yet sent that followed the correction is not doubled; a typo corrected back is not texted again', async () => {
    const wrong = '+13125550163';
    const right = '+13125550164';
    const p = await joined(t, host, v.id, { name: 'Quick Fix', partySize: 2, phone: wrong });
    // Corrected before the relay ran: the one text goes to the right number.
    await correct(p.entry.id, { entryVersion: 1, phone: right }).expect(200);
    expect((await joinedTexts(p.entry.id)).map((m) => m.to)).toEqual([right]);
    await relay();
    // Corrected to a typo and back: the typo gets its text (the host's mistake), the right number not a second one.
    await correct(p.entry.id, { entryVersion: 2, phone: wrong }).expect(200);
    await correct(p.entry.id, { entryVersion: 3, phone: right }).expect(200);
    expect((await joinedTexts(p.entry.id)).filter((m) => m.to === right)).toHaveLength(1);
  });

  it('a party told at the desk that service ends before its wait is over is told so again at the corrected number', async () => {
    // 11:46 PM in Chicago: the service ends at midnight; one party ahead, a 20-minute turn each.
    clock.set(new Date('2026-10-10T04:46:00.000Z'));
    const late = await liveVenue(t, owner, { tables: [{ label: 'L7', capacity: 3 }] });
    const lateHost = await addMember(t, late.id, owner, 'host');
    const wrong = '+13125550165';
    const right = '+13125550166';
    await joined(t, lateHost, late.id, { name: 'Ahead Late', partySize: 3, email: `late-${uniq()}@example.test` });
    const p = await joined(t, lateHost, late.id, { name: 'Night Typo', partySize: 3, phone: wrong });
    const texts = async () =>
      (await messages(t, owner, late.id)).filter(
        (m) => m.entryId === p.entry.id && m.template === 'queue-joined' && m.channel === 'sms',
      );
    const first = (await texts()).find((m) => m.to === wrong);
    const endLine = /Service ends at [^,]+, before this wait is over: we may not be able to seat you\./.exec(
      first?.body ?? '',
    )?.[0];
    expect(endLine).toBe('Service ends at 12:00 AM CDT, before this wait is over: we may not be able to seat you.');
    // Sent to the stranger at the typo (one not yet sent would follow the correction as it is).
    await relay();
    expect((await texts()).find((m) => m.to === wrong)?.status).toBe('sent');

    clock.set(new Date('2026-10-10T04:49:00.000Z'));
    await request(t.baseUrl)
      .patch(`/v1/venues/${late.id}/queue/${p.entry.id}`)
      .set(lateHost.auth)
      .send({ entryVersion: 1, phone: right })
      .expect(200);
    const resent = (await texts()).find((m) => m.to === right);
    expect(resent?.body).toContain(endLine);
    expect(resent?.body).toContain('Quoted wait about 40 min (approx)');
  });
});
