import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';
import { refusal, errorOf } from '../support/restaurant.js';

/** Tables, approved combinations and service windows: managers change them, hosts read them. */
describe('restaurant setup: tables, combinations, service windows', () => {
  let t: TestApp;
  let owner: Staff;
  let manager: Staff;
  let host: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'setup-owner');
    venueId = (await createVenue(t, owner)).id;
    manager = await addMember(t, venueId, owner, 'manager');
    host = await addMember(t, venueId, owner, 'host');
  });
  afterAll(() => t.close());

  const post = (who: Staff, path: string, body: unknown): request.Test =>
    request(t.baseUrl)
      .post(`/v1/venues/${venueId}/${path}`)
      .set(who.auth)
      .send(body as object);
  const get = (who: Staff, path: string): request.Test => request(t.baseUrl).get(`/v1/venues/${venueId}/${path}`).set(who.auth);

  describe('tables and combinations', () => {
    const ids: Record<string, string> = {};

    it('a manager adds tables; a host reads them but cannot add one', async () => {
      for (const [label, capacity] of [
        ['T1', 2],
        ['T2', 2],
        ['T3', 4],
        ['T4', 6],
        ['T5', 4],
      ] as const) {
        const res = await post(manager, 'tables', { label, capacity }).expect(201);
        expect(res.body).toEqual({
          id: expect.any(String),
          label,
          capacity,
          x: null,
          y: null,
          retired: false,
          createdAt: expect.any(String),
        });
        ids[label] = (res.body as { id: string }).id;
      }
      expect(refusal(await post(host, 'tables', { label: 'T9', capacity: 2 }))).toEqual({ status: 403, code: 'FORBIDDEN' });
      const list = (await get(host, 'tables').expect(200)).body as Array<{ label: string; capacity: number }>;
      expect(list.map((x) => [x.label, x.capacity])).toEqual([
        ['T1', 2],
        ['T2', 2],
        ['T3', 4],
        ['T4', 6],
        ['T5', 4],
      ]);
    });

    it('refuses a repeated label, and capacities outside 1–200 or not whole numbers', async () => {
      const dup = await post(manager, 'tables', { label: 'T1', capacity: 4 });
      expect(refusal(dup)).toEqual({ status: 409, code: 'CONFLICT' });
      expect(errorOf(dup).message).toBe('A table with this label already exists at this venue.');
      // What a client keys on (the board's "Another table already has this name"), not the words.
      expect(errorOf(dup).details).toEqual({ field: 'label', reason: 'label-taken' });
      for (const capacity of [0, 201, 2.5, '4', null]) {
        expect(refusal(await post(manager, 'tables', { label: `X${String(capacity)}`, capacity }))).toEqual({
          status: 400,
          code: 'VALIDATION',
        });
      }
      expect(refusal(await post(manager, 'tables', { label: '', capacity: 2 }))).toEqual({ status: 400, code: 'VALIDATION' });
      expect(refusal(await post(manager, 'tables', { label: 'T7', capacity: 2, shape: 'round' }))).toEqual({
        status: 400,
        code: 'VALIDATION',
      });
    });

    it("approves combinations of 2–4 of the venue's own tables, each set once", async () => {
      const res = await post(manager, 'combinations', { tableIds: [ids['T4'], ids['T3']], capacity: 10 }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        tableIds: [ids['T3'], ids['T4']].sort(),
        capacity: 10,
        createdAt: expect.any(String),
      });
      await post(manager, 'combinations', { tableIds: [ids['T1'], ids['T2'], ids['T3'], ids['T5']], capacity: 12 }).expect(201);
      // The same set in another order is the same combination.
      const again = await post(manager, 'combinations', { tableIds: [ids['T3'], ids['T4']], capacity: 9 });
      expect(refusal(again)).toEqual({ status: 409, code: 'CONFLICT' });

      const other = await createVenue(t, owner);
      const foreign = (
        await request(t.baseUrl)
          .post(`/v1/venues/${other.id}/tables`)
          .set(owner.auth)
          .send({ label: 'F1', capacity: 4 })
          .expect(201)
      ).body as { id: string };
      for (const tableIds of [
        [ids['T1']],
        [ids['T1'], ids['T2'], ids['T3'], ids['T4'], ids['T5']],
        [ids['T1'], ids['T1']],
        [ids['T1'], foreign.id],
        [ids['T1'], '00000000-0000-4000-8000-000000000000'],
        [ids['T1'], 'not-a-uuid'],
      ]) {
        expect(refusal(await post(manager, 'combinations', { tableIds, capacity: 4 }))).toEqual({
          status: 400,
          code: 'VALIDATION',
        });
      }
      expect(refusal(await post(host, 'combinations', { tableIds: [ids['T1'], ids['T5']], capacity: 6 }))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const list = (await get(host, 'combinations').expect(200)).body as Array<{ capacity: number; tableIds: string[] }>;
      expect(list.map((c) => [c.capacity, c.tableIds.length])).toEqual([
        [10, 2],
        [12, 4],
      ]);
    });

    it('a pool venue has no tables', async () => {
      const pool = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 12 });
      const res = await request(t.baseUrl)
        .post(`/v1/venues/${pool.id}/tables`)
        .set(owner.auth)
        .send({ label: 'T1', capacity: 2 });
      expect(refusal(res)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    });
  });

  describe('service windows', () => {
    it('a manager adds windows (one past midnight); a host reads them', async () => {
      const lunch = await post(manager, 'service-windows', {
        days: [1, 2, 3, 4, 5],
        start: '11:30',
        end: '14:30',
        turnMinutes: 45,
      }).expect(201);
      expect(lunch.body).toEqual({
        id: expect.any(String),
        days: [1, 2, 3, 4, 5],
        start: '11:30',
        end: '14:30',
        turnMinutes: 45,
        depositRequired: false,
        createdAt: expect.any(String),
        // No clock change touches 11:30 or 14:30 (docs/api-additions.md).
        clockChanges: [],
      });
      await post(manager, 'service-windows', {
        days: [5, 6],
        start: '18:00',
        end: '01:30',
        turnMinutes: 90,
        depositRequired: true,
      }).expect(201);
      await post(manager, 'service-windows', { days: [7], start: '18:00', end: '23:00', turnMinutes: 60 }).expect(201);
      expect(refusal(await post(host, 'service-windows', { days: [1], start: '17:00', end: '18:00', turnMinutes: 30 }))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const list = (await get(host, 'service-windows').expect(200)).body as Array<{
        start: string;
        end: string;
        depositRequired: boolean;
      }>;
      expect(list.map((w) => `${w.start}-${w.end}${w.depositRequired ? ' deposit' : ''}`)).toEqual([
        '11:30-14:30',
        '18:00-01:30 deposit',
        '18:00-23:00',
      ]);
    });

    it('refuses windows that overlap another, including across midnight', async () => {
      const over = await post(manager, 'service-windows', { days: [6], start: '01:00', end: '03:00', turnMinutes: 30 });
      expect(refusal(over)).toEqual({ status: 409, code: 'CONFLICT' });
      expect(errorOf(over).message).toBe('This window overlaps the window 18:00–01:30 on Friday, Saturday.');
      expect(
        refusal(await post(manager, 'service-windows', { days: [3], start: '14:00', end: '15:00', turnMinutes: 30 })),
      ).toEqual({
        status: 409,
        code: 'CONFLICT',
      });
      // Touching is not overlapping: 01:30 Saturday is where the Friday window ends.
      await post(manager, 'service-windows', { days: [6], start: '01:30', end: '03:00', turnMinutes: 30 }).expect(201);
    });

    it('a manager removes a window set by mistake and adds the right one; a host cannot remove one', async () => {
      // Tuesday 08:00–10:00 was meant to be 09:00–11:00: the overlap refuses the fix until the typo is gone.
      const typo = (
        await post(manager, 'service-windows', { days: [2], start: '08:00', end: '10:00', turnMinutes: 45 }).expect(201)
      ).body as { id: string };
      const fix = { days: [2], start: '09:00', end: '11:00', turnMinutes: 45 };
      expect(refusal(await post(manager, 'service-windows', fix))).toEqual({ status: 409, code: 'CONFLICT' });
      const path = `/v1/venues/${venueId}/service-windows/${typo.id}`;
      expect(refusal(await request(t.baseUrl).delete(path).set(host.auth))).toEqual({ status: 403, code: 'FORBIDDEN' });
      const removed = await request(t.baseUrl).delete(path).set(manager.auth).expect(200);
      expect(removed.body).toMatchObject({ id: typo.id, start: '08:00', end: '10:00' });
      expect(refusal(await request(t.baseUrl).delete(path).set(manager.auth))).toEqual({ status: 404, code: 'NOT_FOUND' });
      const fixed = (await post(manager, 'service-windows', fix).expect(201)).body as { id: string };
      const list = (await get(host, 'service-windows').expect(200)).body as Array<{ id: string }>;
      expect(list.map((w) => w.id)).toContain(fixed.id);
      expect(list.map((w) => w.id)).not.toContain(typo.id);
      const history = (await get(owner, `history?subjectId=${typo.id}`).expect(200)).body as Array<{
        from: string | null;
        to: string;
      }>;
      expect(history.map((h) => [h.from, h.to])).toEqual([
        ['created', 'removed'],
        [null, 'created'],
      ]);
    });

    it('refuses malformed windows', async () => {
      const good = { days: [2], start: '17:00', end: '22:00', turnMinutes: 30 };
      for (const bad of [
        { ...good, days: [] },
        { ...good, days: [0] },
        { ...good, days: [8] },
        { ...good, days: [2, 2] },
        { ...good, days: [1.5] },
        { ...good, start: '24:00' },
        { ...good, start: '7:00' },
        { ...good, end: '22:60' },
        { ...good, end: '17:00' },
        { ...good, turnMinutes: 0 },
        { ...good, turnMinutes: '30' },
        { ...good, depositRequired: 'yes' },
        { ...good, timeZone: 'UTC' },
      ]) {
        expect(refusal(await post(manager, 'service-windows', bad))).toEqual({ status: 400, code: 'VALIDATION' });
      }
    });
  });
});
