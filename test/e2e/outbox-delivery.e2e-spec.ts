import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock, loadConfig, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { JobScheduler } from '@hostboard/jobs';
import { EmailChannel, OutboxRelay, SmsAdapter } from '@hostboard/outbox';
import { activeEntries, joined, liveVenue, messages, type Sandbox } from '../support/restaurant.js';
import { fakeSmsProvider, type FakeSmsProvider } from '../support/fake-sms-provider.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago

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
    t = await startApp({ clock });
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
  const relayWith = (env: Record<string, string> = {}): OutboxRelay => {
    const config = loadConfig({ NODE_ENV: 'test', ...provider.env, ...env });
    return new OutboxRelay(
      t.app.get(Clock),
      t.app.get(TransactionRunner),
      t.app.get(JobScheduler),
      t.app.get(BoardEventWriter),
      new EmailChannel(config),
      new SmsAdapter(config),
    );
  };

  /** Relays until a run sends nothing. */
  const relayAll = async (relay: OutboxRelay): Promise<void> => {
    while ((await relay.relay()) > 0);
  };

  const step = (): void => clock.advance(1_000);

  const offer = async (v: Sandbox, entryId: string): Promise<string> => {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === entryId);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  };

  it('hands each party its texts in the order they were recorded, whatever order the table keeps them in', async () => {
    clock.set(FRIDAY_6PM);
    const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 2 }] });
    const phones = ['+13125550161', '+13125550162', '+13125550163', '+13125550164'];
    // Each party, a second apart: joins, is offered T1, the offer is withdrawn, offered again, and
    // the host cancels it: five texts each, "This confirms that you are no longer in the queue" last.
    for (const [i, phone] of phones.entries()) {
      const p = await joined(t, owner, v.id, { name: `Guest ${i}`, partySize: 2, phone });
      step();
      const first = await offer(v, p.entry.id);
      step();
      await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${first}/withdraw`).set(owner.auth).send({}).expect(200);
      step();
      await offer(v, p.entry.id);
      step();
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${p.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
      step();
    }
    const recorded = (await messages(t, owner, v.id)).reverse();
    expect(recorded).toHaveLength(phones.length * 5);
    // PostgreSQL keeps no row order: any rewrite of a row (a claim given back, space vacuum freed and
    // a later insert reused) puts it elsewhere in the table. Rewrite each party's first texts, so the
    // table's own order differs from the recorded one, as it does on a busy outbox.
    await ds().query(`UPDATE outbox_messages SET body = body WHERE template IN ('queue-joined', 'offer-withdrawn')`);

    await relayAll(relayWith());
    for (const phone of phones) {
      const sent = provider.received.filter((r) => r.form.get('To') === phone).map((r) => r.form.get('Body'));
      expect(sent).toEqual(recorded.filter((m) => m.to === phone).map((m) => m.body));
    }
    expect(provider.received).toHaveLength(recorded.length);
  });
});
