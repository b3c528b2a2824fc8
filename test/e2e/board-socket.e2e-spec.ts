import request from 'supertest';
import { TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

describe('board socket (/board)', () => {
  let t: TestApp;
  let owner: Staff;
  let venueId: string;
  const clients: BoardClient[] = [];
  const client = (token: string | undefined, headers?: Record<string, string>): BoardClient => {
    const c = new BoardClient(t.baseUrl, token, headers);
    clients.push(c);
    return c;
  };
  // A registration: one committed change, one board event.
  const join = (name: string): Promise<unknown> =>
    request(t.baseUrl).post(`/v1/venues/${venueId}/reservations`).set(owner.auth).send({ name, partySize: 1 }).expect(201);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    venueId = (
      await createVenue(t, owner, { preset: 'workshop', poolCapacity: 12, sandbox: true, clock: '2026-10-09T14:00:00Z' })
    ).id;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  it('refuses a handshake without a session token, or with a wrong one', async () => {
    expect(await client(undefined).refused()).toBe('UNAUTHENTICATED');
    expect(await client('not-a-real-token-not-a-real-token-123').refused()).toBe('UNAUTHENTICATED');
  });

  it('refuses a handshake from an origin that is not allowed', async () => {
    expect(await client(owner.token, { Origin: 'http://evil.example' }).refused()).toMatch(/./);
    const same = client(owner.token, { Origin: t.baseUrl });
    await same.connected();
  });

  it('refuses a subscription to a venue the user does not belong to', async () => {
    const stranger = await signUp(t, 'stranger');
    const c = client(stranger.token);
    await c.connected();
    expect(await c.subscribe(venueId)).toEqual({ error: { code: 'NOT_FOUND', message: 'The venue was not found.' } });
  });

  it('answers a first subscription with a snapshot, then pushes each change in version order', async () => {
    const c = client(owner.token);
    await c.connected();
    const ack = (await c.subscribe(venueId)) as { version: number; snapshot: { version: number; queue: unknown[] } };
    expect(ack.snapshot.version).toBe(ack.version);
    await join('P1');
    await join('P2');
    await waitFor(() => c.events.length >= 2, 5000, 'two pushes');
    expect(c.events.map((e) => e.version)).toEqual([ack.version + 1, ack.version + 2]);
    expect(c.events.every((e) => e.type === 'reservation.created' && e.venueId === venueId)).toBe(true);
  });

  it('replays exactly the three changes a disconnected board missed, in order', async () => {
    const c = client(owner.token);
    await c.connected();
    const ack = (await c.subscribe(venueId)) as { version: number };
    c.close();
    await join('M1');
    await join('M2');
    await join('M3');
    const back = client(owner.token);
    await back.connected();
    const replay = (await back.subscribe(venueId, ack.version)) as {
      version: number;
      events: Array<{ version: number; type: string }>;
    };
    expect(replay.events.map((e) => e.version)).toEqual([ack.version + 1, ack.version + 2, ack.version + 3]);
    expect(replay.version).toBe(ack.version + 3);
  });

  it('pushes nothing for a transaction that rolled back', async () => {
    const c = client(owner.token);
    await c.connected();
    const { version } = (await c.subscribe(venueId)) as { version: number };
    const runner = t.app.get(TransactionRunner);
    const writer = t.app.get(BoardEventWriter);
    await expect(
      runner.run(async (tx) => {
        await writer.append(tx, venueId, 'test.rolled-back', {}, new Date('2026-10-09T14:00:00Z'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await join('after-rollback');
    await waitFor(() => c.events.length >= 1, 5000, 'the next push');
    expect(c.events.map((e) => [e.version, e.type])).toEqual([[version + 1, 'reservation.created']]);
  });

  it('closes a socket that sends a message over 64 KB', async () => {
    const c = client(owner.token);
    await c.connected();
    const closed = new Promise<string>((resolve) => c.socket.once('disconnect', (reason) => resolve(reason)));
    c.socket.emit('subscribe', { venueId, padding: 'x'.repeat(70 * 1024) });
    expect(await closed).toMatch(/transport (close|error)/);
  });
});
