import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';
import { exchange, joined, moveClock, party, queueSession, sandboxVenue } from '../support/restaurant.js';

/**
 * The server side of the board's desk (issue 15): the token lookup that does not spend the token,
 * table changes (rename, capacity, plan position, retire), staff notes and tags, and `/` → the board.
 */
const INVALID = {
  error: { code: 'TOKEN_INVALID', message: 'This token is not valid. Ask the venue for a fresh one.', details: {} },
};
const CLOCK = '2026-06-12T23:00:00.000Z';

interface LookedUp {
  entry: { id: string; status: string; name: string };
  position: number | null;
  ahead: number | null;
  offer: { id: string; state: string; tableIds: string[] } | null;
}

describe('board desk: lookup by token, tables, party details', () => {
  let t: TestApp;
  let owner: Staff;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'desk-owner');
  });
  afterAll(() => t.close());

  it('finds the entry and its live offer by token without spending it; used, replaced, unknown and other-venue tokens are TOKEN_INVALID', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK, tables: [{ label: 'T1', capacity: 4 }] });
    const host = await addMember(t, v.id, owner, 'host');
    const a = await joined(t, owner, v.id, party(2, 'Ada'));
    const b = await joined(t, owner, v.id, party(3, 'Bea'));
    const lookup = (venueId: string, token: string, who: Staff = host) =>
      api().post(`/v1/venues/${venueId}/queue/lookup`).set(who.auth).send({ token });

    const first = (await lookup(v.id, b.queueToken as string).expect(200)).body as LookedUp;
    expect(first).toMatchObject({
      entry: { id: b.entry.id, status: 'waiting', name: 'Bea' },
      position: 2,
      ahead: 1,
      offer: null,
    });

    const offered = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: b.entry.id, entryVersion: b.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    // Looked up twice: the token is not spent by a lookup.
    for (let i = 0; i < 2; i++) {
      const again = (await lookup(v.id, b.queueToken as string).expect(200)).body as LookedUp;
      expect(again.entry.status).toBe('offered');
      expect(again.offer).toMatchObject({ id: offerId, state: 'live', tableIds: [v.tableIds['T1']] });
    }
    // The party can still open its own session with it afterwards.
    const opened = await exchange(t, b.queueToken as string).expect(201);
    // ...which uses it up: the desk now gets TOKEN_INVALID too.
    expect((await lookup(v.id, b.queueToken as string).expect(401)).body).toEqual(INVALID);
    const own = await api()
      .get('/v1/queue-session')
      .set(queueSession((opened.body as { sessionToken: string }).sessionToken))
      .expect(200);
    expect((own.body as LookedUp).offer?.id).toBe(offerId);

    // Replaced: the old token is refused, the new one found.
    const replaced = await api().post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`).set(host.auth).expect(201);
    expect((await lookup(v.id, a.queueToken as string).expect(401)).body).toEqual(INVALID);
    const fresh = (replaced.body as { queueToken: string }).queueToken;
    expect(((await lookup(v.id, fresh).expect(200)).body as LookedUp).entry.id).toBe(a.entry.id);

    // Unknown, malformed, and another venue's token (asked at this venue) say the same.
    expect((await lookup(v.id, 'x'.repeat(43)).expect(401)).body).toEqual(INVALID);
    expect((await lookup(v.id, 'not a token').expect(401)).body).toEqual(INVALID);
    const other = await sandboxVenue(t, owner, { clock: CLOCK });
    const c = await joined(t, owner, other.id, party(2));
    expect((await lookup(v.id, c.queueToken as string).expect(401)).body).toEqual(INVALID);
    expect((await lookup(other.id, c.queueToken as string, owner).expect(200)).body).toMatchObject({ entry: { id: c.entry.id } });

    // Expired at the venue's midnight after the business date.
    await moveClock(t, owner, other.id, '2026-06-14T06:00:00.000Z');
    expect((await lookup(other.id, c.queueToken as string, owner).expect(401)).body).toEqual(INVALID);
    // A body without a token is a validation refusal.
    await api().post(`/v1/venues/${v.id}/queue/lookup`).set(host.auth).send({}).expect(400);
  });

  it('renames, resizes, places and retires a table; a retired table leaves the floor and cannot be offered; a table in use is not retired', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
    });
    const t1 = v.tableIds['T1'] as string;
    const t2 = v.tableIds['T2'] as string;
    const host = await addMember(t, v.id, owner, 'host');
    await api().patch(`/v1/venues/${v.id}/tables/${t1}`).set(host.auth).send({ label: 'Window' }).expect(403);
    const changed = await api()
      .patch(`/v1/venues/${v.id}/tables/${t1}`)
      .set(owner.auth)
      .send({ label: ' Window ', capacity: 3, x: 20, y: 75 })
      .expect(200);
    expect(changed.body).toMatchObject({ id: t1, label: 'Window', capacity: 3, x: 20, y: 75, retired: false });
    await api().patch(`/v1/venues/${v.id}/tables/${t1}`).set(owner.auth).send({ x: 101 }).expect(400);
    const dup = await api().patch(`/v1/venues/${v.id}/tables/${t1}`).set(owner.auth).send({ label: 'T2' }).expect(409);
    expect((dup.body as { error: { code: string } }).error.code).toBe('CONFLICT');
    const board = (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      tables: Array<{ id: string; label: string; capacity: number; x: number | null; y: number | null }>;
    };
    expect(board.tables.find((x) => x.id === t1)).toMatchObject({ label: 'Window', capacity: 3, x: 20, y: 75 });
    expect(board.tables.find((x) => x.id === t2)).toMatchObject({ x: null, y: null });

    // T2 is held for a party: it cannot be retired until it is free.
    const a = await joined(t, owner, v.id, party(4));
    const offer = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: a.entry.id, entryVersion: a.entry.version, tableIds: [t2] })
      .expect(201);
    const busy = await api().post(`/v1/venues/${v.id}/tables/${t2}/retire`).set(owner.auth).expect(409);
    expect((busy.body as { error: { message: string } }).error.message).toBe(
      'This table is held, booked or occupied; retire it once it is free.',
    );
    const withdrawn = await api()
      .post(`/v1/venues/${v.id}/offers/${(offer.body as { offer: { id: string } }).offer.id}/withdraw`)
      .set(host.auth)
      .expect(200);
    // The answer still says which table the withdrawn offer held.
    expect(withdrawn.body).toMatchObject({ offer: { state: 'withdrawn', tableIds: [t2] } });
    const retired = await api().post(`/v1/venues/${v.id}/tables/${t2}/retire`).set(owner.auth).expect(200);
    expect(retired.body).toMatchObject({ id: t2, retired: true });
    // Repeating answers the same.
    await api().post(`/v1/venues/${v.id}/tables/${t2}/retire`).set(owner.auth).expect(200);
    const after = (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      tables: Array<{ id: string }>;
    };
    expect(after.tables.map((x) => x.id)).toEqual([t1]);
    const listed = (await api().get(`/v1/venues/${v.id}/tables`).set(host.auth).expect(200)).body as Array<{ id: string }>;
    expect(listed.map((x) => x.id)).toEqual([t1]);
    const current = (await api().get(`/v1/venues/${v.id}/queue`).set(host.auth).expect(200)).body as {
      entries: Array<{ id: string; version: number }>;
    };
    const version = current.entries.find((e) => e.id === a.entry.id)?.version;
    const refused = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: a.entry.id, entryVersion: version, tableIds: [t2] })
      .expect(400);
    expect((refused.body as { error: { code: string } }).error.code).toBe('VALIDATION');
    await api().patch(`/v1/venues/${v.id}/tables/${t2}`).set(owner.auth).send({ label: 'Back' }).expect(404);
  });

  it('keeps staff notes and tags on an entry, on the board only, without changing its version', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK });
    const host = await addMember(t, v.id, owner, 'host');
    const a = await joined(t, owner, v.id, party(2));
    const put = (body: object) => api().put(`/v1/venues/${v.id}/queue/${a.entry.id}/details`).set(host.auth).send(body);
    const saved = await put({ note: ' Nut allergy, table by the window ', tags: ['allergy', 'high-chair', 'allergy'] }).expect(
      200,
    );
    expect(saved.body).toEqual({
      entryId: a.entry.id,
      note: 'Nut allergy, table by the window',
      tags: ['high-chair', 'allergy'],
    });
    await put({ note: null, tags: ['birthday'] }).expect(400);
    await put({ note: 'x'.repeat(201), tags: [] }).expect(400);
    const board = (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      queue: Array<{ id: string; version: number; note: string | null; tags: string[] }>;
    };
    expect(board.queue[0]).toMatchObject({ id: a.entry.id, version: a.entry.version, note: 'Nut allergy, table by the window' });
    expect(board.queue[0]?.tags).toEqual(['high-chair', 'allergy']);
    // The party's own view carries no staff details.
    const opened = await exchange(t, a.queueToken as string).expect(201);
    const own = await api()
      .get('/v1/queue-session')
      .set(queueSession((opened.body as { sessionToken: string }).sessionToken))
      .expect(200);
    expect(JSON.stringify(own.body)).not.toContain('allergy');
    await put({ note: null, tags: [] }).expect(200);
    const cleared = (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      queue: Array<{ note: string | null; tags: string[] }>;
    };
    expect(cleared.queue[0]).toMatchObject({ note: null, tags: [] });
  });

  it('two screens with the same party open: what each changed is kept, and a note changed on both is refused with the other one', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK });
    const host = await addMember(t, v.id, owner, 'host');
    const a = await joined(t, owner, v.id, party(2));
    const put = (body: object) => api().put(`/v1/venues/${v.id}/queue/${a.entry.id}/details`).set(host.auth).send(body);
    await put({ note: 'Birthday', tags: ['high-chair'] }).expect(200);
    // Both tablets opened the party now (note "Birthday", a high chair).
    const read = { note: 'Birthday', tags: ['high-chair'] };

    // The door's tablet writes a note; the bar's adds VIP and takes the high chair off, touching no note.
    expect((await put({ note: 'Birthday, window seat', noteWas: read.note }).expect(200)).body).toMatchObject({
      note: 'Birthday, window seat',
      tags: ['high-chair'],
    });
    expect((await put({ tags: ['vip'], tagsWas: read.tags }).expect(200)).body).toMatchObject({
      note: 'Birthday, window seat',
      tags: ['vip'],
    });
    // The door's tablet adds an allergy to what it read: VIP (added elsewhere) stays, the high chair stays off.
    expect((await put({ tags: ['high-chair', 'allergy'], tagsWas: read.tags }).expect(200)).body).toMatchObject({
      tags: ['vip', 'allergy'],
    });

    // The bar's tablet changes the note it read, which the door changed since: refused, with the door's note.
    const refused = await put({ note: 'Birthday, cake at 9', noteWas: read.note }).expect(409);
    expect((refused.body as { error: unknown }).error).toEqual({
      code: 'CONFLICT',
      message: 'The note was changed on another screen while this one was open.',
      details: { field: 'note', note: 'Birthday, window seat' },
    });
    // Saving the same words as the other screen, or against the note it now shows, goes through.
    await put({ note: 'Birthday, window seat', noteWas: read.note }).expect(200);
    await put({ note: 'Birthday, cake at 9', noteWas: 'Birthday, window seat' }).expect(200);
    const board = (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      queue: Array<{ note: string | null; tags: string[] }>;
    };
    expect(board.queue[0]).toMatchObject({ note: 'Birthday, cake at 9', tags: ['vip', 'allergy'] });
    // Nothing to save is a plain refusal, not an empty write.
    await put({}).expect(400);
    await put({ tags: ['vip'], tagsWas: ['birthday'] }).expect(400);
  });

  it('the site root leads to the board', async () => {
    const res = await api().get('/').expect(302);
    expect(res.headers.location as string).toBe('/board/');
    // A venue is still needed for the staff routes: creating one shows the helper is wired.
    expect((await createVenue(t, owner)).id).toEqual(expect.any(String));
  });
});
