import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@hostboard/core';
import { NOT_SENT, type OutboxRelay } from '@hostboard/outbox';
import {
  activeEntries,
  joined,
  liveVenue,
  messages,
  sandboxVenue,
  type MessageBody,
  type Sandbox,
} from '../support/restaurant.js';
import { fakeSmsProvider, type Answer, type FakeSmsProvider } from '../support/fake-sms-provider.js';
import { waitFor } from '../support/board-client.js';
import { relayOn } from '../support/outbox-relay.js';
import { growth, scrape } from '../support/metrics-scrape.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago
const METRICS_TOKEN = 'metrics-token-for-the-outbox-test';

/**
 * What reaches a guest's phone, and when: the relay of a worker started with a text provider (a
 * loopback fake) over the messages this app recorded without one, on the app's manual clock.
 */
describe('outbox delivery: order, what is too late to send, retries', () => {
  let t: TestApp;
  let owner: Staff;
  let provider: FakeSmsProvider;
  const clock = new ManualClock(FRIDAY_6PM);
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    provider = await fakeSmsProvider();
    // No provider in the app itself: nothing relays behind the test's back.
    t = await startApp({ clock, env: { METRICS_TOKEN } });
    owner = await signUp(t, 'owner');
  });
  beforeEach(() => {
    provider.received.length = 0;
    provider.taken().length = 0;
    provider.answer = () => 201;
    provider.delayMs = 0;
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  /** The relay a worker started with the fake provider (and `env`) would run, on this app's database. */
  const relayWith = (env: Record<string, string> = {}): OutboxRelay => relayOn(t, { ...provider.env, ...env });

  /** Relays until a run sends nothing. */
  const relayAll = async (relay: OutboxRelay): Promise<void> => {
    while ((await relay.relay()) > 0);
  };

  const step = (): void => clock.advance(1_000);

  const offer = async (v: Sandbox, entryId: string, table = 'T1'): Promise<string> => {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === entryId);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  };

  it('hands each party its texts in the order they were recorded, whatever order the table keeps them in', async () => {
    clock.set(FRIDAY_6PM);
    const tables = Array.from({ length: 12 }, (_, i) => ({ label: `T${i + 1}`, capacity: 2 }));
    const v = await liveVenue(t, owner, { tables });
    // Twelve parties, a second apart: each joins, then is offered a table of its own (still open when
    // the relay runs): "you are in the queue", then "your table is ready".
    const phones = tables.map((_, i) => `+131255501${60 + i}`);
    const parties = [];
    for (const [i, phone] of phones.entries()) {
      parties.push(await joined(t, owner, v.id, { name: `Guest ${i}`, partySize: 2, phone }));
      step();
    }
    for (const [i, p] of parties.entries()) {
      await offer(v, p.entry.id, `T${i + 1}`);
      step();
    }
    const recorded = (await messages(t, owner, v.id)).reverse();
    expect(recorded).toHaveLength(phones.length * 2);
    // PostgreSQL keeps no row order: any rewrite of a row (a claim given back, space vacuum freed and
    // a later insert reused) puts it elsewhere in the table. Rewrite the first texts, so the table's
    // own order differs from the recorded one, as it does on a busy outbox.
    await ds().query(`UPDATE outbox_messages SET body = body WHERE template = 'queue-joined'`);

    await relayAll(relayWith());
    for (const phone of phones) {
      const sent = provider.received.filter((r) => r.form.get('To') === phone).map((r) => r.form.get('Body'));
      expect(sent).toEqual(recorded.filter((m) => m.to === phone).map((m) => m.body));
    }
    expect(provider.received).toHaveLength(recorded.length);
  });

  const byTemplate = (list: MessageBody[], template: string): MessageBody | undefined =>
    list.find((m) => m.template === template);

  it('the messages list names the party each message was about, by its name now, and when a provider took it', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner);
    const p = await joined(t, owner, v.id, { name: 'Ana Lima', partySize: 2, phone: '+13125550171' });
    clock.advance(20_000);
    await relayAll(relayWith());
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${p.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: p.entry.version, name: 'Ana Lima-Souza' })
      .expect(200);
    const listed = await messages(t, owner, v.id);
    expect(listed.map((m) => [m.partyName, m.status, m.sentAt])).toEqual([
      ['Ana Lima-Souza', 'sent', new Date(FRIDAY_6PM.getTime() + 20_000).toISOString()],
    ]);
    // Not sent yet: no sent time.
    await joined(t, owner, v.id, { name: 'Bo', partySize: 2, phone: '+13125550172' });
    const [newest] = await messages(t, owner, v.id);
    expect(newest).toMatchObject({ partyName: 'Bo', status: 'recorded' });
    expect(newest?.sentAt).toBeUndefined();
  });

  it('a worker started with a provider after running without one sends only what is timely: not old messages, not ended offers, not sandboxes', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    // 6:00 PM: a party joins and is offered T1 until 6:05 PM; nobody sends anything.
    const early = await joined(t, owner, v.id, { name: 'Early', partySize: 2, phone: '+13125550171' });
    await offer(v, early.entry.id);
    // 6:14 PM: another joins (13 minutes before the relay runs: still worth telling).
    clock.set(new Date(FRIDAY_6PM.getTime() + 14 * 60_000));
    const recent = await joined(t, owner, v.id, { name: 'Recent', partySize: 2, phone: '+13125550172' });
    // A sandbox venue whose simulated clock stamps its messages "now": rehearsal data all the same.
    const rehearsal = await sandboxVenue(t, owner, { clock: new Date(FRIDAY_6PM.getTime() + 27 * 60_000).toISOString() });
    await joined(t, owner, rehearsal.id, { name: 'Rehearsed', partySize: 2, phone: '+13125550173' });

    // 6:27 PM: the worker starts with a provider. Nobody swept: Early's offer is still `live` in the
    // table, but its deadline passed.
    clock.set(new Date(FRIDAY_6PM.getTime() + 27 * 60_000));
    await relayAll(relayWith());
    expect(provider.received.map((r) => r.form.get('To'))).toEqual(['+13125550172']);

    const live = await messages(t, owner, v.id);
    expect(live.find((m) => m.entryId === recent.entry.id)).toMatchObject({ template: 'queue-joined', status: 'sent' });
    const earlyOnes = live.filter((m) => m.entryId === early.entry.id);
    expect(byTemplate(earlyOnes, 'queue-joined')).toMatchObject({ status: 'recorded', notSentReason: NOT_SENT.tooOld(15) });
    expect(byTemplate(earlyOnes, 'table-ready')).toMatchObject({ status: 'recorded', notSentReason: NOT_SENT.offerEnded });
    const [sandboxed] = await messages(t, owner, rehearsal.id);
    expect(sandboxed).toMatchObject({ template: 'queue-joined', status: 'recorded', notSentReason: NOT_SENT.sandbox });

    // Held back for good: a later run sends none of them; the board does not call those parties unreached.
    await relayAll(relayWith());
    expect(provider.received).toHaveLength(1);
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      queue: Array<{ id: string; reach: string }>;
    };
    expect(board.queue.find((e) => e.id === early.entry.id)?.reach).toBe('ok');
  });

  it('an offer withdrawn before the relay ran: neither its table-ready text nor the withdrawal is sent; a live one is', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    const p = await joined(t, owner, v.id, { name: 'Withdrawn', partySize: 2, phone: '+13125550174' });
    step();
    const first = await offer(v, p.entry.id);
    step();
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${first}/withdraw`).set(owner.auth).send({}).expect(200);
    step();
    await offer(v, p.entry.id);
    step();
    await relayAll(relayWith());

    const mine = (await messages(t, owner, v.id)).reverse();
    expect(mine.map((m) => [m.template, m.status, m.notSentReason])).toEqual([
      ['queue-joined', 'sent', undefined],
      ['table-ready', 'recorded', NOT_SENT.offerEnded],
      ['offer-withdrawn', 'recorded', NOT_SENT.offerNeverSent],
      ['table-ready', 'sent', undefined],
    ]);
    expect(provider.received.map((r) => r.form.get('Body'))).toEqual(mine.filter((m) => m.status === 'sent').map((m) => m.body));
  });

  it('OUTBOX_MAX_AGE_MINUTES sets the cut-off', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner);
    await joined(t, owner, v.id, { name: 'Patient', partySize: 2, phone: '+13125550175' });
    clock.advance(20 * 60_000);
    await relayAll(relayWith({ OUTBOX_MAX_AGE_MINUTES: '30' }));
    expect((await messages(t, owner, v.id))[0]).toMatchObject({ status: 'sent' });
    expect(() => loadConfig({ OUTBOX_MAX_AGE_MINUTES: '0' })).toThrow(/OUTBOX_MAX_AGE_MINUTES/);
  });

  const reachOf = async (v: Sandbox, entryId: string): Promise<string | undefined> =>
    (
      (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
        queue: Array<{ id: string; reach: string }>;
      }
    ).queue.find((e) => e.id === entryId)?.reach;

  it('a text the provider did not take (503, 429) is tried again after a backoff, and the texts after it wait for it', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    const p = await joined(t, owner, v.id, { name: 'Outage', partySize: 2, phone: '+13125550181' });
    step();
    await offer(v, p.entry.id);
    const answers = [503, 429];
    provider.answer = () => answers.shift() ?? 201;
    const relay = relayWith();
    const before = await scrape(t, METRICS_TOKEN);

    expect(await relay.relay()).toBe(0);
    expect(provider.received).toHaveLength(1);
    // Still recorded, with the provider's words; "your table is ready" was not sent ahead of it.
    const [ready, queued] = await messages(t, owner, v.id);
    expect(queued).toMatchObject({ template: 'queue-joined', status: 'recorded', failureReason: expect.stringContaining('503') });
    expect(ready).toMatchObject({ template: 'table-ready', status: 'recorded' });
    expect(await reachOf(v, p.entry.id)).toBe('ok');
    // Not before the backoff.
    expect(await relay.relay()).toBe(0);
    expect(provider.received).toHaveLength(1);
    clock.advance(10_000);
    expect(await relay.relay()).toBe(0);
    expect(provider.received).toHaveLength(2);
    clock.advance(30_000);
    expect(await relay.relay()).toBe(2);
    expect(provider.taken().map((r) => r.form.get('Body'))).toEqual([queued?.body, ready?.body]);
    expect((await messages(t, owner, v.id)).map((m) => [m.status, m.failureReason])).toEqual([
      ['sent', undefined],
      ['sent', undefined],
    ]);
    // What an operator's scrape reads: two refusals tried again, two texts taken, 41 s and 40 s after
    // they were recorded (the queued text at 6:00:00 PM, the table-ready at 6:00:01, both taken at 6:00:41).
    const figures = growth(await scrape(t, METRICS_TOKEN), before);
    expect(figures).toMatchObject({
      'hostboard_guest_messages_total{channel="sms",outcome="retrying"}': 2,
      'hostboard_guest_messages_total{channel="sms",outcome="sent"}': 2,
      'hostboard_guest_message_delay_seconds_count{channel="sms"}': 2,
    });
    expect(figures['hostboard_guest_message_delay_seconds_sum{channel="sms"}']).toBeCloseTo(81, 3);
  });

  it('a refused connection is tried again; a provider that keeps refusing fails the text after four tries', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner);
    const p = await joined(t, owner, v.id, { name: 'Down', partySize: 2, phone: '+13125550182' });
    // A port nothing listens on: the provider is down.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await relayWith({ SMS_URL: `http://127.0.0.1:${port}` }).relay();
    expect((await messages(t, owner, v.id))[0]).toMatchObject({
      status: 'recorded',
      failureReason: expect.stringContaining('refused the connection'),
    });

    // Back up, but answering 503 every time: three more tries, then failed for good.
    provider.answer = () => 503;
    for (const wait of [10_000, 30_000, 90_000]) {
      clock.advance(wait);
      await relayWith().relay();
    }
    expect(provider.received).toHaveLength(3);
    expect((await messages(t, owner, v.id))[0]).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining('503'),
    });
    expect(await reachOf(v, p.entry.id)).toBe('failed');
    // The manager's question after a bad evening: which guests did not hear from us?
    const failedOnly = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?status=failed`).set(owner.auth).expect(200))
      .body as MessageBody[];
    expect(failedOnly.map((m) => [m.to, m.status])).toEqual([['+13125550182', 'failed']]);
    expect((await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?status=sent`).set(owner.auth).expect(200)).body).toEqual(
      [],
    );
    await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?status=lost`).set(owner.auth).expect(400);
    clock.advance(600_000);
    await relayWith().relay();
    expect(provider.received).toHaveLength(3);
  });

  it('a table-ready text the provider refused until its offer ended has failed: the party reads not reached', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    // A 90-second hold ends before the fourth try (10 s + 30 s + 90 s of backoff).
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 90 } })
      .expect(200);
    const p = await joined(t, owner, v.id, { name: 'Outage Hold', partySize: 2, phone: '+13125550184' });
    await relayAll(relayWith());
    step();
    await offer(v, p.entry.id);
    provider.answer = () => 503;
    const relay = relayWith();
    await relay.relay();
    for (const wait of [10_000, 30_000]) {
      clock.advance(wait);
      await relay.relay();
    }
    expect(provider.received).toHaveLength(4);
    // The hold ends; the sweep records the lapse, and the next run gives up on "your table is ready".
    clock.advance(60_000);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/sweeps`).set(owner.auth).send({}).expect(200);
    await relay.relay();

    const [lapsed, ready] = await messages(t, owner, v.id);
    expect(lapsed).toMatchObject({ template: 'offer-lapsed', status: 'recorded', notSentReason: NOT_SENT.offerNeverSent });
    // The guest never got it, and the provider's refusal is why: failed, as a fourth refusal would be.
    expect(ready).toMatchObject({
      template: 'table-ready',
      status: 'failed',
      failureReason: expect.stringContaining('503'),
      notSentReason: NOT_SENT.offerEnded,
    });
    expect(await reachOf(v, p.entry.id)).toBe('failed');
    // Open boards hear it, as they hear a fourth refusal.
    const events = (await ds().query(`SELECT type, data FROM board_events WHERE venue_id = $1 AND type = 'message.failed'`, [
      v.id,
    ])) as Array<{ data: { messageId: string; entryId: string } }>;
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ messageId: ready?.id, entryId: p.entry.id })]);
    expect(provider.received).toHaveLength(4);
  });

  it('a relay run hands a phone no text while an earlier one to it is still with the provider', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    const p = await joined(t, owner, v.id, { name: 'Slow Lane', partySize: 2, phone: '+13125550185' });
    await relayAll(relayWith());
    step();
    const offerId = await offer(v, p.entry.id);
    // A slow provider: it holds its answer to "your table is ready".
    let answerReady: (a: Answer) => void = () => undefined;
    provider.answer = () => new Promise<Answer>((resolve) => (answerReady = resolve));
    const first = relayWith().relay();
    let meanwhile: number;
    try {
      await waitFor(() => provider.received.length === 2, 5000, 'the table-ready text in flight');
      step();
      await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).send({}).expect(200);
      provider.answer = () => 201;
      // The next five-second run (or another worker) while the first is still waiting for its answer.
      meanwhile = await relayWith().relay();
    } finally {
      answerReady(201);
      await first;
    }
    expect(meanwhile).toBe(0);
    await relayAll(relayWith());
    const recorded = (await messages(t, owner, v.id)).reverse();
    expect(recorded.map((m) => [m.template, m.status])).toEqual([
      ['queue-joined', 'sent'],
      ['table-ready', 'sent'],
      ['offer-withdrawn', 'sent'],
    ]);
    expect(provider.received.map((r) => r.form.get('Body'))).toEqual(recorded.map((m) => m.body));
  });

  it("a text left `sending` by a relay that died holds the phone's later texts back for a few minutes, not for good", async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    const p = await joined(t, owner, v.id, { name: 'Crashed Relay', partySize: 2, phone: '+13125550186' });
    // Claimed by a relay that died before the provider answered: never handed over again.
    await ds().query(`UPDATE outbox_messages SET status = 'sending', claimed_at = $2 WHERE entry_id = $1`, [
      p.entry.id,
      clock.now(),
    ]);
    step();
    await offer(v, p.entry.id);
    expect(await relayWith().relay()).toBe(0);
    // Within the five-minute hold, the table-ready text still goes.
    clock.advance(3 * 60_000);
    expect(await relayWith().relay()).toBe(1);
    expect(provider.received.map((r) => r.form.get('Body'))).toEqual([expect.stringContaining('your table is ready')]);
  });

  it('a text whose outcome is unknown (the request went out, no answer came) is never sent twice', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner);
    await joined(t, owner, v.id, { name: 'Unknown', partySize: 2, phone: '+13125550183' });
    provider.answer = () => 'drop';
    await relayWith().relay();
    expect(provider.received).toHaveLength(1);
    // The manager reads why in plain words, and that the guest may have it all the same.
    expect((await messages(t, owner, v.id))[0]).toMatchObject({
      status: 'failed',
      failureReason:
        'the text provider closed the connection without answering: the guest may have the text; it is not sent again, so it cannot arrive twice',
    });
    provider.answer = () => 201;
    clock.advance(60_000);
    await relayWith().relay();
    expect(provider.received).toHaveLength(1);
  });

  it('an email the SMTP server did not take (451) is tried again after the backoff; one it refused for good (550) fails at once', async () => {
    clock.set(FRIDAY_6PM);
    // Each RCPT TO answered with the next code given, else taken.
    const refusals: number[] = [451];
    const delivered: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const code = refusals.shift();
        if (code === undefined) return callback();
        callback(
          Object.assign(new Error(code < 500 ? 'Mailbox busy, try again later' : 'No such mailbox'), { responseCode: code }),
        );
      },
      onData(stream, session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          delivered.push(session.envelope.rcptTo.map((r) => r.address).join(','));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    try {
      const v = await liveVenue(t, owner);
      await joined(t, owner, v.id, { name: 'Busy Box', partySize: 2, email: 'busy@example.test' });
      expect(await relayWith({ SMTP_URL: smtpUrl }).relay()).toBe(0);
      expect((await messages(t, owner, v.id))[0]).toMatchObject({
        status: 'recorded',
        failureReason: expect.stringContaining('451'),
      });
      // Not before the backoff; then once, and sent.
      expect(await relayWith({ SMTP_URL: smtpUrl }).relay()).toBe(0);
      clock.advance(10_000);
      expect(await relayWith({ SMTP_URL: smtpUrl }).relay()).toBe(1);
      expect(delivered).toEqual(['busy@example.test']);
      expect((await messages(t, owner, v.id))[0]).toMatchObject({ status: 'sent' });

      refusals.push(550);
      const gone = await joined(t, owner, v.id, { name: 'Gone Box', partySize: 2, email: 'gone@example.test' });
      await relayWith({ SMTP_URL: smtpUrl }).relay();
      const failed = (await messages(t, owner, v.id)).find((m) => m.to === 'gone@example.test');
      expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('550') });
      expect(await reachOf(v, gone.entry.id)).toBe('failed');
      clock.advance(600_000);
      await relayWith({ SMTP_URL: smtpUrl }).relay();
      expect(delivered).toEqual(['busy@example.test']);
    } finally {
      await new Promise<void>((resolve) => smtp.close(resolve));
    }
  });

  it('serves a few recipients at once (one slow hand-over does not hold up the rest)', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner);
    for (let i = 0; i < 8; i++)
      await joined(t, owner, v.id, { name: `At once ${i}`, partySize: 2, phone: `+131255501${90 + i}` });
    provider.delayMs = 200;
    expect(await relayWith().relay()).toBe(8);
    expect(provider.maxInFlight()).toBeGreaterThan(1);
    expect(provider.maxInFlight()).toBeLessThanOrEqual(4);
  });
});
