import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  activeEntries,
  exchange,
  joined,
  messages,
  queueSession,
  sandboxVenue,
  uniq,
  type MessageBody,
  type Sandbox,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago
const PUBLIC_URL = 'https://guests.example.test';

interface OfferBody {
  offer: { id: string; reservationId: string };
}

/**
 * A party the host takes off the queue (the board's "Remove from queue", or a held or confirmed
 * table cancelled: a no-show) is told the venue removed it, on each channel it gave, once; a party
 * that leaves by itself keeps "You have left the queue".
 */
describe('guest messages when the host removes a party', () => {
  let t: TestApp;
  let owner: Staff;
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ env: { PUBLIC_URL } });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(async () => t.close());

  const restaurant = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
    });

  const offer = async (v: Sandbox, entryId: string, table: string): Promise<OfferBody> => {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === entryId);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    return res.body as OfferBody;
  };

  const endings = async (v: Sandbox, entryId: string): Promise<MessageBody[]> =>
    (await messages(t, owner, v.id)).filter(
      (m) => m.entryId === entryId && m.template.startsWith('queue-') && m.template !== 'queue-joined',
    );

  const removeFromQueue = (v: Sandbox, entryId: string, key?: string) => {
    const r = request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${entryId}/cancel`).set(owner.auth);
    return (key ? r.set('Idempotency-Key', key) : r).send({}).expect(200);
  };

  it('a waiting phone-only party removed by the host gets one text saying the venue removed it, even on a retried request', async () => {
    const v = await restaurant();
    const p = await joined(t, owner, v.id, { name: 'Phone Only', partySize: 2, phone: '+13125550161' });
    const key = `remove-${uniq()}`;
    await removeFromQueue(v, p.entry.id, key);
    await removeFromQueue(v, p.entry.id, key);
    await removeFromQueue(v, p.entry.id);
    const said = await endings(v, p.entry.id);
    expect(said.map((m) => [m.channel, m.to, m.template])).toEqual([['sms', '+13125550161', 'queue-removed']]);
    expect(said[0]?.body).toBe(
      'The Test Kitchen: the host removed you from the queue. If you think this is a mistake, or to join again, ask at the desk.',
    );
    expect(said[0]?.body).not.toMatch(/you have left|confirms that you/i);
  });

  it('a party holding an offer, removed by the host, hears it on email and text; the table offered is said to be released', async () => {
    const v = await restaurant();
    const email = `offered-${uniq()}@example.test`;
    const p = await joined(t, owner, v.id, { name: 'Olga', partySize: 2, email, phone: '+13125550162' });
    await offer(v, p.entry.id, 'T1');
    const key = `remove-${uniq()}`;
    await removeFromQueue(v, p.entry.id, key);
    await removeFromQueue(v, p.entry.id, key);
    const said = await endings(v, p.entry.id);
    expect(said.map((m) => `${m.channel} ${m.template}`).sort()).toEqual(['email queue-removed', 'sms queue-removed']);
    const mail = said.find((m) => m.channel === 'email');
    expect(mail).toMatchObject({ to: email, subject: 'The Test Kitchen removed you from the queue' });
    expect(mail?.body).toBe(
      [
        'Hello Olga,',
        '',
        'The host at The Test Kitchen removed you from the queue, and the table offered to you is released.',
        'If you think this is a mistake, or would like to join again, ask at the desk.',
      ].join('\n'),
    );
    expect(said.find((m) => m.channel === 'sms')?.body).toBe(
      'The Test Kitchen: the host removed you from the queue, and the table offered to you is released. If you think this is a mistake, or to join again, ask at the desk.',
    );
  });

  it('a confirmed party whose table the host cancels (a no-show) is told its table was cancelled and it is off the queue', async () => {
    const v = await restaurant();
    const p = await joined(t, owner, v.id, { name: 'Nora', partySize: 2, phone: '+13125550163' });
    const o = await offer(v, p.entry.id, 'T1');
    const s = (await exchange(t, p.queueToken ?? '').expect(201)).body as { sessionToken: string };
    await request(t.baseUrl).post('/v1/queue-session/accept').set(queueSession(s.sessionToken)).send({}).expect(200);
    const key = `no-show-${uniq()}`;
    for (let i = 0; i < 2; i++)
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations/${o.offer.reservationId}/cancel`)
        .set(owner.auth)
        .set('Idempotency-Key', key)
        .send({})
        .expect(200);
    const said = await endings(v, p.entry.id);
    expect(said.map((m) => m.template)).toEqual(['queue-removed']);
    expect(said[0]?.body).toBe(
      'The Test Kitchen: the host removed you from the queue, and the table confirmed for you is released. If you think this is a mistake, or to join again, ask at the desk.',
    );
  });

  it('a party that leaves by itself still gets "You have left the queue", once', async () => {
    const v = await restaurant();
    const email = `leaver-${uniq()}@example.test`;
    const p = await joined(t, owner, v.id, { name: 'Leaver', partySize: 2, email, phone: '+13125550164' });
    await offer(v, p.entry.id, 'T1');
    const s = (await exchange(t, p.queueToken ?? '').expect(201)).body as { sessionToken: string };
    await request(t.baseUrl).post('/v1/queue-session/leave').set(queueSession(s.sessionToken)).send({}).expect(200);
    // The host's later tap on the same entry changes nothing and says nothing.
    await removeFromQueue(v, p.entry.id);
    const said = await endings(v, p.entry.id);
    expect(said.map((m) => `${m.channel} ${m.template}`).sort()).toEqual(['email queue-left', 'sms queue-left']);
    expect(said.find((m) => m.channel === 'email')?.subject).toBe('You have left the queue — The Test Kitchen');
  });
});
