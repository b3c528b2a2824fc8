import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  activeEntries,
  deskJoin,
  EVERY_DAY,
  errorOf,
  exchange,
  joined,
  messages,
  moveClock,
  party,
  queueSession,
  refusal,
  sandboxVenue,
  uniq,
  type EntryBody,
  type Sandbox,
  type SandboxOptions,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * Issue 14, items 3–12: the rules the audit found broken on table venues, each through the HTTP API
 * on a sandbox venue (simulated clock). Each test fails on the code before its fix.
 */

interface OfferBody {
  offer: { id: string; entryId: string; reservationId: string; state: string; expiresAt: string };
  reservation: { id: string; state: string };
}

interface HistoryRow {
  at: string;
  subjectId: string;
  from: string | null;
  to: string;
  reason: string | null;
}

const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago, a Friday
const TABLES = [
  { label: 'T1', capacity: 2 },
  { label: 'T2', capacity: 2 },
  { label: 'T3', capacity: 4 },
  { label: 'T4', capacity: 6 },
];

describe('rules audit (issue 14, items 3–12)', () => {
  let t: TestApp;
  let owner: Staff;
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  const restaurant = (extra: Partial<SandboxOptions> = {}): Promise<Sandbox> =>
    sandboxVenue(t, owner, { clock: T0, tables: TABLES, ...extra });

  const offer = (v: Sandbox, entry: { id: string; version: number }, tables: string[]): request.Test =>
    request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: entry.id, entryVersion: entry.version, tableIds: tables.map((l) => v.tableIds[l]) });

  const offered = async (v: Sandbox, entry: { id: string; version: number }, tables: string[]): Promise<OfferBody> =>
    (await offer(v, entry, tables).expect(201)).body as OfferBody;

  /** The entry as the active queue shows it now (its current version). */
  const currentEntry = async (v: Sandbox, entryId: string): Promise<EntryBody> => {
    const found = (await activeEntries(t, owner, v.id)).find((e) => e.id === entryId);
    if (!found) throw new Error(`entry ${entryId} is not in the active queue`);
    return found;
  };

  const historyOf = async (v: Sandbox, subjectId: string): Promise<HistoryRow[]> =>
    // The list is newest first; these tests read a subject's story in the order it happened.
    (
      (await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${subjectId}`).set(owner.auth).expect(200))
        .body as HistoryRow[]
    ).reverse();

  const session = async (token: string | null): Promise<{ Authorization: string }> =>
    queueSession(((await exchange(t, token as string).expect(201)).body as { sessionToken: string }).sessionToken);

  it('3: strict order on tables refuses an offer that skips the head of the queue (RULE_VIOLATION), host-pick does not', async () => {
    const strict = await restaurant({ patch: { policy: { order: 'strict' } } });
    const [a, b, c] = [
      await joined(t, owner, strict.id, party(2)),
      await joined(t, owner, strict.id, party(2)),
      await joined(t, owner, strict.id, party(2)),
    ];
    const skip = await offer(strict, c.entry, ['T1']);
    expect(refusal(skip)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect(errorOf(skip).details).toEqual({ headEntryId: a.entry.id });
    await offered(strict, a.entry, ['T1']);
    // A holds a live offer, so B (the oldest still waiting) is the head now; C still may not pass it.
    expect(errorOf(await offer(strict, c.entry, ['T2']).expect(422)).details).toEqual({ headEntryId: b.entry.id });
    await offered(strict, b.entry, ['T2']);
    await offered(strict, c.entry, ['T3']);

    const hostPick = await restaurant();
    await joined(t, owner, hostPick.id, party(2));
    await joined(t, owner, hostPick.id, party(2));
    const third = await joined(t, owner, hostPick.id, party(2));
    await offered(hostPick, third.entry, ['T1']);
  });

  it('4: the table-ready email says the venue’s own hold length and a stamp with its zone (the fall-back night)', async () => {
    // Sunday 1 November 2026, Chicago: 1:25 AM happens twice, first in CDT, then an hour later in CST.
    const v = await restaurant({ clock: '2026-11-01T06:25:00.000Z', patch: { policy: { holdSeconds: 600 } } });
    const first = await joined(t, owner, v.id, { ...party(2), email: `first-${uniq()}@example.test` });
    await offered(v, first.entry, ['T1']);
    await moveClock(t, owner, v.id, '2026-11-01T07:25:00.000Z');
    const second = await joined(t, owner, v.id, { ...party(2), email: `second-${uniq()}@example.test` });
    await offered(v, second.entry, ['T2']);

    const ready = (await messages(t, owner, v.id)).filter((m) => m.template === 'table-ready');
    const bodyOf = (entryId: string): string => ready.find((m) => m.entryId === entryId)?.body ?? '';
    expect(bodyOf(first.entry.id)).toContain('Please confirm within 10 minutes — the offer expires at 1:35 AM CDT.');
    expect(bodyOf(second.entry.id)).toContain('Please confirm within 10 minutes — the offer expires at 1:35 AM CST.');
    for (const m of ready) {
      expect(m.body).toContain(`Your table is ready — The Test Kitchen`);
      expect(m.body).toContain('Confirm through your queue link so we can seat you.');
      expect(m.body).not.toContain('within 5 minutes');
    }
  });

  it('5: the party’s accept without an offerId takes the live offer, even after withdrawals in the same instant', async () => {
    const v = await restaurant();
    // Each party is offered, withdrawn and re-offered three times at one sandbox instant: four
    // offers with the same creation time. Ordering by time then id would pick the live one 1 time in 4.
    for (const table of ['T1', 'T2', 'T3', 'T4']) {
      const p = await joined(t, owner, v.id, party(2));
      let last: OfferBody | undefined;
      for (let i = 0; i < 4; i++) {
        if (last)
          await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${last.offer.id}/withdraw`).set(owner.auth).expect(200);
        last = await offered(v, await currentEntry(v, p.entry.id), [table]);
      }
      const accepted = await request(t.baseUrl)
        .post('/v1/queue-session/accept')
        .set(await session(p.queueToken))
        .send({});
      expect({ status: accepted.status, offerId: (accepted.body as OfferBody).offer?.id }).toEqual({
        status: 200,
        offerId: last?.offer.id,
      });
    }
  });

  it('6: leaving after accepting cancels the booking (tables released once, history kept) and says so', async () => {
    const v = await restaurant();
    const p = await joined(t, owner, v.id, party(2));
    const auth = await session(p.queueToken);
    const o = await offered(v, p.entry, ['T1']);
    await request(t.baseUrl).post('/v1/queue-session/accept').set(auth).send({}).expect(200);

    const left = await request(t.baseUrl).post('/v1/queue-session/leave').set(auth).send({}).expect(200);
    expect(left.body).toMatchObject({
      entry: { id: p.entry.id, status: 'cancelled' },
      cancelledBooking: { id: o.reservation.id, state: 'CANCELLED' },
    });
    const counts = (await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as {
      free: number;
      tables: number;
    };
    expect(counts.free).toBe(counts.tables);
    // Repeats change nothing: the staff cancel of the entry and of the booking find them cancelled.
    const again = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${p.entry.id}/cancel`).set(owner.auth).expect(200);
    expect(again.body).toEqual({ entry: (left.body as { entry: EntryBody }).entry });
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${o.reservation.id}/cancel`).set(owner.auth).expect(200);
    const booking = await historyOf(v, o.reservation.id);
    expect(booking.map((h) => `${h.from}->${h.to}`)).toEqual(['null->HELD', 'HELD->CONFIRMED', 'CONFIRMED->CANCELLED']);
    const entry = await historyOf(v, p.entry.id);
    expect(entry.map((h) => `${h.from}->${h.to}`)).toEqual([
      'null->waiting',
      'waiting->offered',
      'offered->confirmed',
      'confirmed->cancelled',
    ]);
  });

  it('7: a cancelled entry’s queue token answers TOKEN_INVALID, and its open sessions end', async () => {
    const v = await restaurant();
    const unused = await joined(t, owner, v.id, party(2));
    const inSession = await joined(t, owner, v.id, party(2));
    const auth = await session(inSession.queueToken);
    await request(t.baseUrl).get('/v1/queue-session').set(auth).expect(200);

    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${unused.entry.id}/cancel`).set(owner.auth).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${inSession.entry.id}/cancel`).set(owner.auth).expect(200);
    expect(refusal(await exchange(t, unused.queueToken as string))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(refusal(await request(t.baseUrl).get('/v1/queue-session').set(auth))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(refusal(await request(t.baseUrl).post('/v1/queue-session/accept').set(auth).send({}))).toEqual({
      status: 401,
      code: 'TOKEN_INVALID',
    });
  });

  it('8: a venue’s time zone may be any IANA name, UTC included; an offset is not a zone', async () => {
    const create = (timeZone: string): request.Test =>
      request(t.baseUrl)
        .post('/v1/venues')
        .set(owner.auth)
        .send({ slug: `tz-${uniq()}`, name: 'Zones', timeZone, preset: 'restaurant' });
    expect((await create('UTC').expect(201)).body).toMatchObject({ timeZone: 'UTC', country: null });
    expect((await create('Etc/GMT+5').expect(201)).body).toMatchObject({ timeZone: 'Etc/GMT+5' });
    expect(refusal(await create('+05:00'))).toEqual({ status: 400, code: 'VALIDATION' });
    expect(refusal(await create('Mars/Olympus_Mons'))).toEqual({ status: 400, code: 'VALIDATION' });
    // A UTC sandbox runs the queue on UTC dates: a join is quoted and dated in UTC.
    const v = await restaurant({ timeZone: 'UTC', clock: '2026-10-09T23:30:00.000Z' });
    expect((await joined(t, owner, v.id, party(2))).entry.businessDate).toBe('2026-10-09');
  });

  it('9: a party no table or approved combination seats is refused at the join, by its size, after the cap guard', async () => {
    const v = await restaurant();
    const tooBig = await deskJoin(t, owner, v.id, party(8));
    expect(refusal(tooBig)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(errorOf(tooBig).message).toBe('No table or approved combination here seats a party of 8; the largest seats 6.');
    // Over the cap (8 by default) the cap's answer comes first.
    expect(errorOf(await deskJoin(t, owner, v.id, party(9)).expect(400)).message).toBe('The queue accepts parties of at most 8.');
    const six = await joined(t, owner, v.id, party(6));
    // A correction may not make a party that size either.
    const grown = await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${six.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: six.entry.version, partySize: 8 });
    expect(refusal(grown)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(errorOf(grown).message).toBe('No table or approved combination here seats a party of 8; the largest seats 6.');
    // An approved combination that seats eight makes the party of eight welcome.
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['T3'], v.tableIds['T4']], capacity: 10 })
      .expect(201);
    await deskJoin(t, owner, v.id, party(8)).expect(201);
  });

  it('10: a venue’s country (from its zone, set by a manager) reads national phone numbers; they are stored and compared in E.164', async () => {
    const v = await restaurant({ timeZone: 'America/New_York' });
    const venue = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as { country: string };
    expect(venue.country).toBe('US');
    const first = await joined(t, owner, v.id, { name: 'Dee', partySize: 2, phone: '(212) 555-0143' });
    const stored: Array<{ phone: string }> = await ds().query('SELECT phone FROM queue_entries WHERE id = $1', [first.entry.id]);
    expect(stored[0]?.phone).toBe('+12125550143');
    const same = await deskJoin(t, owner, v.id, { name: 'Dee again', partySize: 2, phone: '+1 212-555-0143' });
    expect(refusal(same)).toEqual({ status: 409, code: 'WAITLIST_DUPLICATE' });
    expect(errorOf(same).details).toEqual({ entryId: first.entry.id });
    expect(refusal(await deskJoin(t, owner, v.id, { name: 'X', partySize: 2, phone: '555-01' }))).toEqual({
      status: 400,
      code: 'VALIDATION',
    });

    // A manager sets the country; a host may not; an unknown code is refused.
    const host = await addMember(t, v.id, owner, 'host');
    const manager = await addMember(t, v.id, owner, 'manager');
    expect(refusal(await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(host.auth).send({ country: 'GB' }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(refusal(await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(manager.auth).send({ country: 'XX' }))).toEqual({
      status: 400,
      code: 'VALIDATION',
    });
    const patched = await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(manager.auth).send({ country: 'GB' }).expect(200);
    expect((patched.body as { country: string }).country).toBe('GB');
    // A UK mobile typed the British way (a London landline, 020 7946 0958, cannot receive the texts
    // a phone-only party is sent, and is refused since the security review).
    const london = await joined(t, owner, v.id, { name: 'Ede', partySize: 2, phone: '07911 123456' });
    const londonStored: Array<{ phone: string }> = await ds().query('SELECT phone FROM queue_entries WHERE id = $1', [
      london.entry.id,
    ]);
    expect(londonStored[0]?.phone).toBe('+447911123456');

    // A venue whose zone names no country takes international numbers only, with a plain reason.
    const utc = await restaurant({ timeZone: 'UTC' });
    const national = await deskJoin(t, owner, utc.id, { name: 'Fay', partySize: 2, phone: '(212) 555-0143' });
    expect(refusal(national)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(errorOf(national).message).toMatch(/international form/);
    await deskJoin(t, owner, utc.id, { name: 'Fay', partySize: 2, phone: '+12125550143' }).expect(201);
  });

  it('11: when a business day ends its waiting parties leave the queue (history, no email); a live offer of that day expires as usual', async () => {
    // Friday's service runs past midnight, to 01:00 on Saturday.
    const v = await restaurant({ windows: [{ days: EVERY_DAY, start: '17:00', end: '01:00', turnMinutes: 20 }] });
    const contact = `ana-${uniq()}@example.test`;
    const ana = await joined(t, owner, v.id, { ...party(2), email: contact });
    const bo = await joined(t, owner, v.id, party(2));
    const cy = await joined(t, owner, v.id, party(2));
    // 00:58 on Saturday, still Friday's service: Cy is offered a table until 01:03.
    await moveClock(t, owner, v.id, '2026-10-10T05:58:00.000Z');
    expect((await activeEntries(t, owner, v.id)).map((e) => e.status)).toEqual(['waiting', 'waiting', 'waiting']);
    const o = await offered(v, await currentEntry(v, cy.entry.id), ['T1']);
    const emailsBefore = (await messages(t, owner, v.id)).length;

    // 01:01: Friday's service is over. Ana and Bo leave the queue; Cy still holds a live offer.
    await moveClock(t, owner, v.id, '2026-10-10T06:01:00.000Z');
    expect((await activeEntries(t, owner, v.id)).map((e) => [e.id, e.status])).toEqual([[cy.entry.id, 'offered']]);
    for (const e of [ana, bo]) {
      expect((await historyOf(v, e.entry.id)).at(-1)).toMatchObject({
        from: 'waiting',
        to: 'expired',
        reason: 'business day ended',
      });
    }
    // 01:03: the offer expires as usual, Cy goes back to waiting with the place kept, and then leaves too.
    const moved = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/clock`)
      .set(owner.auth)
      .send({ now: '2026-10-10T06:03:00.000Z' })
      .expect(200);
    expect((moved.body as { expired: string[] }).expired).toEqual([o.offer.id]);
    expect(await activeEntries(t, owner, v.id)).toEqual([]);
    expect((await historyOf(v, cy.entry.id)).slice(-2).map((h) => [h.from, h.to, h.reason])).toEqual([
      ['offered', 'waiting', 'WAITLIST_OFFER_EXPIRED'],
      ['waiting', 'expired', 'business day ended'],
    ]);
    // No message for leaving at the end of the day. Cy hears once that its offer lapsed, and is not
    // promised a place in a queue that has closed. The same contact may queue on Saturday evening.
    const after = await messages(t, owner, v.id);
    expect(after).toHaveLength(emailsBefore + 1);
    const lapsed = after.find((m) => m.template === 'offer-lapsed');
    expect(lapsed).toMatchObject({ entryId: cy.entry.id });
    expect(lapsed?.body).toContain('no longer in the queue');
    expect(lapsed?.body).not.toContain('the place was kept');
    await moveClock(t, owner, v.id, '2026-10-10T22:30:00.000Z');
    expect((await joined(t, owner, v.id, { ...party(2), email: contact })).entry.businessDate).toBe('2026-10-10');
  });

  it('12: one entry in any status, with its queue sequence, received time, quote at join and history', async () => {
    const v = await restaurant();
    await joined(t, owner, v.id, party(2));
    const me = await joined(t, owner, v.id, party(2));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${me.entry.id}/cancel`).set(owner.auth).expect(200);
    const detail = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${me.entry.id}`).set(owner.auth).expect(200)).body as {
      entry: EntryBody;
      quote: { position: number; ahead: number; waitMinutes: number; quotedAt: string };
      position: number | null;
      history: HistoryRow[];
    };
    expect(detail.entry).toMatchObject({
      id: me.entry.id,
      status: 'cancelled',
      queueSequence: me.entry.queueSequence,
      receivedAt: me.entry.receivedAt,
    });
    expect(detail.quote).toEqual({
      position: me.position,
      ahead: me.ahead,
      waitMinutes: me.quotedWaitMinutes,
      quotedAt: me.entry.receivedAt,
    });
    expect(detail.position).toBeNull();
    expect(detail.history.map((h) => `${h.from}->${h.to}`)).toEqual(['null->waiting', 'waiting->cancelled']);
    expect(refusal(await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${randomUUID()}`).set(owner.auth))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('12: the queue and the board show the position each party heard (its table kind) next to its place in the list', async () => {
    const v = await restaurant({ tables: [TABLES[0], TABLES[2]] as SandboxOptions['tables'] });
    const four = await joined(t, owner, v.id, party(4));
    const two = await joined(t, owner, v.id, party(2));
    const otherTwo = await joined(t, owner, v.id, party(2));
    const heard = [four.position, two.position, otherTwo.position];
    expect(heard).toEqual([1, 1, 2]);
    const queue = await activeEntries(t, owner, v.id);
    expect(queue.map((e) => [e.position, (e as unknown as { kindPosition: number }).kindPosition])).toEqual([
      [1, heard[0]],
      [2, heard[1]],
      [3, heard[2]],
    ]);
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      queue: Array<{ position: number; kindPosition: number }>;
    };
    expect(board.queue.map((e) => [e.position, e.kindPosition])).toEqual(queue.map((e) => [e.position, heard[e.position - 1]]));
  });
});
