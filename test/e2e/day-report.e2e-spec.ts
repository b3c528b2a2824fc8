import request from 'supertest';
import { DateTime } from 'luxon';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  activeEntries,
  exchange,
  joined,
  moveClock,
  party,
  queueSession,
  sandboxVenue,
  type JoinBody,
  type Sandbox,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * The day report: one evening of a sandbox venue in Adelaide (UTC+10:30 in October), service 17:00
 * to 02:00, run on the simulated clock. Every party meets a different end, and the report must count
 * each once, by its final outcome, on the business date it joined: the parties that joined after
 * local midnight belong to Friday's evening, as the window that started on Friday does.
 */
const ZONE = 'Australia/Adelaide';
const FRIDAY = '2026-10-16';
const SATURDAY = '2026-10-17';
/** An instant on the venue's wall clock: `at('18:00')` is Friday 6 PM, `at('00:20', SATURDAY)` just after midnight. */
const at = (hhmm: string, date = FRIDAY): string =>
  DateTime.fromISO(`${date}T${hhmm}`, { zone: ZONE }).toUTC().toISO({ suppressMilliseconds: false }) as string;

interface Figures {
  joined: number;
  people: number;
  outcomes: Record<'seated' | 'noShow' | 'left' | 'removed' | 'offerEnded' | 'dayClosed' | 'stillWaiting' | 'toSeat', number>;
  peopleSeated: number;
  offers: Record<'made' | 'accepted' | 'expired' | 'withdrawn' | 'cancelled', number>;
  waitToSeat: { count: number; medianMinutes: number | null; p90Minutes: number | null; longestMinutes: number | null };
}
interface DayReportBody {
  from: string;
  to: string;
  timeZone: string;
  days: Array<{ businessDate: string } & Figures>;
  totals: Figures;
}

const sumOutcomes = (f: Figures): number => Object.values(f.outcomes).reduce((a, b) => a + b, 0);

describe('day report: what became of each party, by business date', () => {
  let t: TestApp;
  let owner: Staff;
  let manager: Staff;
  let host: Staff;
  let v: Sandbox;

  const clock = (iso: string): Promise<void> => moveClock(t, owner, v.id, iso);
  /** Offers a table at the entry's current version; answers the offer and its held reservation. */
  async function offer(p: JoinBody, table: string): Promise<{ offerId: string; reservationId: string }> {
    const entry = (await activeEntries(t, host, v.id)).find((e) => e.id === p.entry.id);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: p.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    const body = res.body as { offer: { id: string }; reservation: { id: string } };
    return { offerId: body.offer.id, reservationId: body.reservation.id };
  }
  const accept = (offerId: string) =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(host.auth).send({}).expect(200);
  const seat = (reservationId: string) =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservationId}/seat`).set(host.auth).send({}).expect(201);
  const report = (who: Staff, query: string): request.Test =>
    request(t.baseUrl).get(`/v1/venues/${v.id}/reports/days?${query}`).set(who.auth);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'days-owner');
    v = await sandboxVenue(t, owner, {
      timeZone: ZONE,
      clock: at('17:30'),
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '02:00', turnMinutes: 90 }],
      tables: ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((label) => ({ label, capacity: 6 })),
      patch: { policy: { holdSeconds: 300, onOfferExpired: 'leave-queue' } },
    });
    manager = await addMember(t, v.id, owner, 'manager');
    host = await addMember(t, v.id, owner, 'host');
  });
  afterEach(async () => expect(await violations(t.app.get<DataSource>(getDataSourceToken()))).toEqual([]));
  afterAll(() => t.close());

  it('counts an evening across local midnight: joins, outcomes that add up, offers, the wait to be seated', async () => {
    await clock(at('18:00'));
    const ana = await joined(t, host, v.id, party(3, 'Ana Seated'));
    await clock(at('18:02'));
    const ben = await joined(t, host, v.id, party(2, 'Ben Seated'));
    await clock(at('18:04'));
    const anaOffer = await offer(ana, 'T1');
    await accept(anaOffer.offerId);
    await clock(at('18:06'));
    const benOffer = await offer(ben, 'T2');
    await accept(benOffer.offerId);
    await clock(at('18:10'));
    await seat(anaOffer.reservationId); // Ana waited 10 minutes

    await clock(at('18:20'));
    const cai = await joined(t, host, v.id, party(4, 'Cai Lapsed'));
    await clock(at('18:21'));
    await offer(cai, 'T3');
    await clock(at('18:25'));
    const dee = await joined(t, host, v.id, party(5, 'Dee Withdrawn'));
    // Cai's five-minute hold ran out at 18:26; the venue does not keep the place.
    await clock(at('18:28'));
    const deeOffer = await offer(dee, 'T3');
    await clock(at('18:29'));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${deeOffer.offerId}/withdraw`).set(host.auth).send({}).expect(200);
    await clock(at('18:30'));
    await seat(benOffer.reservationId); // Ben waited 28 minutes

    await clock(at('19:00'));
    const eve = await joined(t, host, v.id, party(2, 'Eve NoShow'));
    await clock(at('19:01'));
    const eveOffer = await offer(eve, 'T4');
    await accept(eveOffer.offerId);
    await clock(at('19:10'));
    const fay = await joined(t, host, v.id, party(6, 'Fay Left'));
    await clock(at('19:15'));
    const gus = await joined(t, host, v.id, party(1, 'Gus Removed'));
    // Fay leaves from her phone, through her queue token's session; the host removes Gus.
    const session = queueSession(
      ((await exchange(t, fay.queueToken as string).expect(201)).body as { sessionToken: string }).sessionToken,
    );
    await request(t.baseUrl).post('/v1/queue-session/leave').set(session).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${gus.entry.id}/cancel`).set(host.auth).send({}).expect(200);
    // Eve never comes: the host marks the no-show (the board's button cancels her confirmed table).
    await clock(at('19:40'));
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${eveOffer.reservationId}/cancel`)
      .set(host.auth)
      .send({})
      .expect(200);

    // Kai is offered Eve's freed table and does not come while it is held: the host cancels the hold.
    await clock(at('19:45'));
    const kai = await joined(t, host, v.id, party(3, 'Kai Held NoShow'));
    const kaiOffer = await offer(kai, 'T4');
    await clock(at('19:48'));
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${kaiOffer.reservationId}/cancel`)
      .set(host.auth)
      .send({})
      .expect(200);

    // Late: one party joins before local midnight, two after; all three are Friday's evening.
    await clock(at('23:50'));
    const hal = await joined(t, host, v.id, party(2, 'Hal Before Midnight'));
    await clock(at('00:05', SATURDAY));
    const halOffer = await offer(hal, 'T5');
    await accept(halOffer.offerId);
    await clock(at('00:10', SATURDAY));
    const jo = await joined(t, host, v.id, party(2, 'Jo After Midnight'));
    await clock(at('00:12', SATURDAY));
    const joOffer = await offer(jo, 'T6');
    await accept(joOffer.offerId);
    await clock(at('00:15', SATURDAY));
    await seat(joOffer.reservationId); // Jo waited 5 minutes
    await clock(at('00:20', SATURDAY));
    const ivy = await joined(t, host, v.id, party(3, 'Ivy Still Waiting'));
    // Hal confirmed and is not seated yet: to be seated, not still in the queue (the board's To be seated).
    const confirmed = (await report(manager, `from=${FRIDAY}&to=${FRIDAY}`).expect(200)).body as DayReportBody;
    expect(confirmed.days[0].outcomes).toMatchObject({ stillWaiting: 1, toSeat: 1 });
    await clock(at('00:31', SATURDAY));
    await seat(halOffer.reservationId); // Hal waited 41 minutes
    for (const p of [hal, jo, ivy]) expect(p.entry.businessDate).toBe(FRIDAY);

    // Before the day closes, Ivy is still waiting.
    const open = (await report(manager, `from=${FRIDAY}&to=${FRIDAY}`).expect(200)).body as DayReportBody;
    expect(open.days).toHaveLength(1);
    expect(open.days[0].outcomes).toMatchObject({ stillWaiting: 1, toSeat: 0, dayClosed: 0 });

    // 02:30: the window ended, the day closes, Ivy is out with it. Saturday evening, Kim joins.
    await clock(at('02:30', SATURDAY));
    await clock(at('18:00', SATURDAY));
    const kim = await joined(t, host, v.id, party(4, 'Kim Saturday'));
    expect(kim.entry.businessDate).toBe(SATURDAY);

    const res = await report(manager, `from=${FRIDAY}&to=${SATURDAY}`).expect(200);
    const body = res.body as DayReportBody;
    expect(body).toMatchObject({ from: FRIDAY, to: SATURDAY, timeZone: ZONE });
    expect(body.days.map((d) => d.businessDate)).toEqual([FRIDAY, SATURDAY]);
    const [friday, saturday] = body.days;
    expect(friday).toEqual({
      businessDate: FRIDAY,
      joined: 11,
      people: 3 + 2 + 4 + 5 + 2 + 6 + 1 + 3 + 2 + 2 + 3,
      outcomes: { seated: 4, noShow: 2, left: 1, removed: 1, offerEnded: 2, dayClosed: 1, stillWaiting: 0, toSeat: 0 },
      peopleSeated: 3 + 2 + 2 + 2,
      offers: { made: 8, accepted: 5, expired: 1, withdrawn: 1, cancelled: 1 },
      // Waits 5, 10, 28, 41: the median between 10 and 28; the 90th percentile 0.7 of the way from 28 to 41;
      // the longest, 41 (under ten parties the board says it instead of "9 in 10 within").
      waitToSeat: { count: 4, medianMinutes: 19, p90Minutes: 37.1, longestMinutes: 41 },
    });
    expect(saturday).toEqual({
      businessDate: SATURDAY,
      joined: 1,
      people: 4,
      outcomes: { seated: 0, noShow: 0, left: 0, removed: 0, offerEnded: 0, dayClosed: 0, stillWaiting: 1, toSeat: 0 },
      peopleSeated: 0,
      offers: { made: 0, accepted: 0, expired: 0, withdrawn: 0, cancelled: 0 },
      waitToSeat: { count: 0, medianMinutes: null, p90Minutes: null, longestMinutes: null },
    });
    for (const d of [friday, saturday, body.totals]) expect(sumOutcomes(d)).toBe(d.joined);
    expect(body.totals).toMatchObject({
      joined: 12,
      people: 37,
      outcomes: { seated: 4, stillWaiting: 1 },
      waitToSeat: { count: 4 },
    });

    // One day alone reads only its own parties.
    const sat = (await report(manager, `from=${SATURDAY}&to=${SATURDAY}`).expect(200)).body as DayReportBody;
    expect(sat.days.map((d) => d.businessDate)).toEqual([SATURDAY]);
    expect(sat.totals.joined).toBe(1);

    // The CSV: a byte-order mark, a header, one line per business date.
    const csv = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/reports/days.csv?from=${FRIDAY}&to=${SATURDAY}`)
      .set(manager.auth)
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename=days-${FRIDAY}-${SATURDAY}.csv`);
    const lines = csv.text
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^businessDate,joined,people,seated,/);
    expect(lines[0]).toMatch(/,dayClosed,stillWaiting,toSeat,offersMade,/);
    expect(lines[1]).toBe(`${FRIDAY},11,33,4,9,2,1,1,2,1,0,0,8,5,1,1,1,4,19,37.1`);
  });

  it('takes the quote report range rules and is for managers', async () => {
    const refused = async (who: Staff, query: string): Promise<{ status: number; code?: string }> => {
      const r = await report(who, query);
      return { status: r.status, code: (r.body as { error?: { code: string } }).error?.code };
    };
    expect(await refused(host, `from=${FRIDAY}&to=${FRIDAY}`)).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(await refused(manager, `from=${SATURDAY}&to=${FRIDAY}`)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(await refused(manager, `from=2026-02-30&to=2026-03-01`)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(await refused(manager, `from=16/10/2026&to=${FRIDAY}`)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(await refused(manager, `from=2024-01-01&to=2026-01-01`)).toEqual({ status: 400, code: 'VALIDATION' });
    const csvRefused = await request(t.baseUrl).get(`/v1/venues/${v.id}/reports/days.csv?from=x&to=y`).set(manager.auth);
    expect(csvRefused.status).toBe(400);
    expect(csvRefused.headers['content-type']).toMatch(/json/);
    // An empty range answers no days and zero totals.
    const none = (await report(manager, 'from=2026-01-01&to=2026-01-31').expect(200)).body as DayReportBody;
    expect(none.days).toEqual([]);
    expect(none.totals).toMatchObject({ joined: 0, people: 0, waitToSeat: { count: 0, medianMinutes: null } });
  });
});
