import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { StaffAccountService } from '@hostboard/auth';
import type { Role } from '@hostboard/core';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Staff access, issue 3: sessions, uniform refusals, what the database keeps of a token, the
 * failed-attempt limits, venue roles and the audit trail. Everything over real HTTP on a real app.
 *
 * Addresses: the app trusts X-Forwarded-For from loopback (a reverse proxy on the same host), so
 * every attempt that may fail comes from an address of its own. The per-address limit therefore
 * never sees 127.0.0.1 failures from this file (with REDIS_URL the counters are shared by every app
 * on that Redis, other test files included, and they outlive a run by the window).
 */

const HOUR = 3600_000;

interface Account {
  id: string;
  email: string;
  password: string;
  name: string;
}

interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

const unique = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

/** A documentation address (2001:db8::/32) never used before: a caller of its own. */
const freshAddress = (): string =>
  `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;

const dataSourceOf = (t: TestApp): DataSource => t.app.get<DataSource>(getDataSourceToken());
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });
const errorOf = (body: unknown): ErrorBody['error'] => (body as ErrorBody).error;

/** An account made the way the CLI makes one (no session yet). */
async function account(t: TestApp, label: string): Promise<Account> {
  const email = `${label}-${unique()}@example.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const { user } = await t.app.get(StaffAccountService).ensureAccount({ email, password, name: label }, 'owner-created');
  return { id: user.id, email, password, name: label };
}

function login(t: TestApp, email: string, password: string, from?: string): request.Test {
  const req = request(t.baseUrl).post('/v1/auth/sessions');
  if (from) req.set('X-Forwarded-For', from);
  return req.send({ email, password });
}

const expectRefusal = (res: request.Response, status: number, code: string): ErrorBody['error'] => {
  expect({ status: res.status, code: errorOf(res.body)?.code }).toEqual({ status, code });
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  return errorOf(res.body);
};

describe('staff sessions, roles and audit', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    t = await startApp({ clock });
  });
  afterAll(() => t.close());

  describe('sessions', () => {
    it('login answers 201 {token, expiresAt, user}; the bearer works; logout ends that session and no other', async () => {
      const a = await account(t, 'login');
      const res = await login(t, a.email, a.password).expect(201);
      const body = res.body as { token: string; expiresAt: string; user: { id: string; email: string; name: string } };
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'mustChangePassword', 'token', 'user']);
      // An account whose holder chose the password is not asked to change it.
      expect((body as unknown as { mustChangePassword: boolean }).mustChangePassword).toBe(false);
      expect(body.user).toEqual({ id: a.id, email: a.email, name: a.name });
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{32,128}$/);
      expect(body.expiresAt).toBe(new Date(clock.now().getTime() + 12 * HOUR).toISOString());

      await request(t.baseUrl).get('/v1/venues').set(bearer(body.token)).expect(200);
      const other = (await login(t, a.email, a.password).expect(201)).body as { token: string };
      expect(other.token).not.toBe(body.token);

      const out = await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(body.token)).expect(204);
      expect(out.text).toBe('');
      expectRefusal(await request(t.baseUrl).get('/v1/venues').set(bearer(body.token)), 401, 'UNAUTHENTICATED');
      expectRefusal(await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(body.token)), 401, 'UNAUTHENTICATED');
      // The user's other session lives on.
      await request(t.baseUrl).get('/v1/venues').set(bearer(other.token)).expect(200);
    });

    it('refuses no bearer, a malformed one and an unknown one with 401 UNAUTHENTICATED', async () => {
      expectRefusal(await request(t.baseUrl).get('/v1/venues'), 401, 'UNAUTHENTICATED');
      expectRefusal(await request(t.baseUrl).get('/v1/venues').set({ Authorization: 'Bearer' }), 401, 'UNAUTHENTICATED');
      expectRefusal(
        await request(t.baseUrl).get('/v1/venues').set({ Authorization: 'Basic dXNlcjpwYXNz' }),
        401,
        'UNAUTHENTICATED',
      );
      expectRefusal(
        await request(t.baseUrl)
          .get('/v1/venues')
          .set(bearer(randomBytes(32).toString('base64url'))),
        401,
        'UNAUTHENTICATED',
      );
    });

    it('a wrong password and an unknown email get the same answer', async () => {
      const a = await account(t, 'uniform');
      const wrong = await login(t, a.email, 'not-the-password', freshAddress());
      const unknown = await login(t, `nobody-${unique()}@example.test`, a.password, freshAddress());
      const e = expectRefusal(wrong, 401, 'UNAUTHENTICATED');
      expectRefusal(unknown, 401, 'UNAUTHENTICATED');
      expect(e.message.length).toBeGreaterThan(0);
      expect(unknown.body).toEqual(wrong.body);
      // The right password still works: the refusal was about the password, not the account.
      await login(t, a.email, a.password).expect(201);
    });

    it('an expired session answers exactly like an unknown token and a logged-out one (12 h, by the app clock)', async () => {
      const a = await account(t, 'expiry');
      const { token } = (await login(t, a.email, a.password).expect(201)).body as { token: string };
      const { token: endedToken } = (await login(t, a.email, a.password).expect(201)).body as { token: string };
      await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(endedToken)).expect(204);

      clock.advance(12 * HOUR - 1000);
      await request(t.baseUrl).get('/v1/venues').set(bearer(token)).expect(200);
      clock.advance(1000);
      const expired = await request(t.baseUrl).get('/v1/venues').set(bearer(token));
      const unknown = await request(t.baseUrl)
        .get('/v1/venues')
        .set(bearer(randomBytes(32).toString('base64url')));
      const ended = await request(t.baseUrl).get('/v1/venues').set(bearer(endedToken));
      expectRefusal(expired, 401, 'UNAUTHENTICATED');
      expect({ status: unknown.status, body: unknown.body as unknown }).toEqual({
        status: expired.status,
        body: expired.body as unknown,
      });
      expect({ status: ended.status, body: ended.body as unknown }).toEqual({
        status: expired.status,
        body: expired.body as unknown,
      });
      // An expired session cannot log out either, and a new login works.
      expectRefusal(await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(token)), 401, 'UNAUTHENTICATED');
      const again = (await login(t, a.email, a.password).expect(201)).body as { token: string };
      await request(t.baseUrl).get('/v1/venues').set(bearer(again.token)).expect(200);
    });
  });

  describe('what the database keeps', () => {
    /** Every (table.column) of the public schema whose text form contains `needle`. */
    async function columnsContaining(ds: DataSource, needle: string): Promise<{ hits: string[]; scanned: string[] }> {
      const columns: Array<{ table_name: string; column_name: string }> = await ds.query(
        `SELECT c.table_name, c.column_name
           FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
          ORDER BY c.table_name, c.ordinal_position`,
      );
      const q = (id: string): string => `"${id.replace(/"/g, '""')}"`;
      const hits: string[] = [];
      for (const { table_name: table, column_name: column } of columns) {
        const rows: Array<{ n: number | string }> = await ds.query(
          `SELECT count(*) AS n FROM public.${q(table)} WHERE strpos(${q(column)}::text, $1) > 0`,
          [needle],
        );
        if (Number(rows[0]?.n) > 0) hits.push(`${table}.${column}`);
      }
      return { hits, scanned: columns.map((c) => `${c.table_name}.${c.column_name}`) };
    }

    it('keeps only the sha256 of a token: the token itself is in no column of any table', async () => {
      const ds = dataSourceOf(t);
      const a = await account(t, 'secret');
      const first = (await login(t, a.email, a.password).expect(201)).body as { token: string };
      // A login retried with an Idempotency-Key must not park the token in a stored answer either.
      const second = (await login(t, a.email, a.password).set('Idempotency-Key', `login-${unique()}`).expect(201)).body as {
        token: string;
      };
      // Some traffic with the tokens: reads, a command with a stored answer, a logout.
      await request(t.baseUrl).get('/v1/venues').set(bearer(first.token)).expect(200);
      await request(t.baseUrl)
        .post('/v1/venues')
        .set(bearer(first.token))
        .set('Idempotency-Key', `venue-${unique()}`)
        .send({ slug: `s-${unique()}`, name: 'Secret', timeZone: 'Europe/Paris', preset: 'restaurant' })
        .expect(201);
      await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(second.token)).expect(204);

      for (const token of [first.token, second.token]) {
        const forms = [
          token,
          Buffer.from(token, 'base64url').toString('hex'),
          Buffer.from(token, 'base64url').toString('base64'),
        ];
        for (const form of forms) {
          const { hits, scanned } = await columnsContaining(ds, form);
          expect(scanned).toEqual(
            expect.arrayContaining(['staff_sessions.token_hash', 'audit_events.details', 'idempotency_keys.response_body']),
          );
          expect({ form, hits }).toEqual({ form, hits: [] });
        }
        // The scan does find what is there: the digest, in the one column meant for it.
        expect((await columnsContaining(ds, sha256(token))).hits).toEqual(['staff_sessions.token_hash']);
      }
      const sessions: Array<{ token_hash: string }> = await ds.query(
        'SELECT token_hash FROM staff_sessions WHERE user_id = $1 ORDER BY created_at',
        [a.id],
      );
      expect(sessions.map((s) => s.token_hash).sort()).toEqual([sha256(first.token), sha256(second.token)].sort());
    });

    it('keeps no password in plain either: not of an account, not of a member added over HTTP', async () => {
      const ds = dataSourceOf(t);
      const owner = await signUp(t, 'pw-scan-owner');
      const venue = await createVenue(t, owner);
      const password = `pw-plain-${randomBytes(8).toString('hex')}`;
      const email = `pw-scan-${unique()}@example.test`;
      await request(t.baseUrl)
        .post(`/v1/venues/${venue.id}/members`)
        .set(owner.auth)
        .set('Idempotency-Key', `member-${unique()}`)
        .send({ email, password, role: 'host' })
        .expect(201);
      await login(t, email, password).expect(201);
      await login(t, email, `${password}-typo`, freshAddress()).expect(401);
      for (const secret of [password, `${password}-typo`, owner.password]) {
        expect({ secret, hits: (await columnsContaining(ds, secret)).hits }).toEqual({ secret, hits: [] });
      }
      const [row] = (await ds.query('SELECT password_hash FROM staff_users WHERE email = $1', [email])) as Array<{
        password_hash: string;
      }>;
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('email is case-insensitive for login, and stored normalised', async () => {
      const ds = dataSourceOf(t);
      const owner = await signUp(t, 'case-owner');
      const venue = await createVenue(t, owner);
      const local = `Mixed.Case-${unique()}`;
      const typed = `${local}@Example.TEST`;
      const stored = typed.toLowerCase();
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const added = await request(t.baseUrl)
        .post(`/v1/venues/${venue.id}/members`)
        .set(owner.auth)
        .send({ email: typed, password, role: 'host' })
        .expect(201);
      const member = added.body as { userId: string; email: string; role: Role };
      expect(member.email).toBe(stored);

      const rows: Array<{ id: string; email: string }> = await ds.query(
        'SELECT id, email FROM staff_users WHERE lower(email) = $1',
        [stored],
      );
      expect(rows).toEqual([{ id: member.userId, email: stored }]);

      for (const variant of [typed, stored, stored.toUpperCase(), `${local.toUpperCase()}@example.test`]) {
        const res = await login(t, variant, password).expect(201);
        expect((res.body as { user: { id: string; email: string } }).user).toEqual({
          id: member.userId,
          email: stored,
          name: stored,
        });
      }
      // The same person under another spelling is the same account, not a second one.
      const venue2 = await createVenue(t, owner);
      const again = await request(t.baseUrl)
        .post(`/v1/venues/${venue2.id}/members`)
        .set(owner.auth)
        .send({ email: stored.toUpperCase(), role: 'manager' })
        .expect(201);
      expect((again.body as { userId: string }).userId).toBe(member.userId);
      expect(await ds.query('SELECT id FROM staff_users WHERE lower(email) = $1', [stored])).toHaveLength(1);
    });
  });

  describe('venue roles', () => {
    const members = async (venueId: string, as: Staff): Promise<Array<{ userId: string; role: Role }>> =>
      (await request(t.baseUrl).get(`/v1/venues/${venueId}/members`).set(as.auth).expect(200)).body as Array<{
        userId: string;
        role: Role;
      }>;
    const add = (venueId: string, as: Staff, body: Record<string, unknown>): request.Test =>
      request(t.baseUrl).post(`/v1/venues/${venueId}/members`).set(as.auth).send(body);
    const newPerson = (label: string): { email: string; password: string; name: string } => ({
      email: `${label}-${unique()}@example.test`,
      password: `pw-${randomBytes(8).toString('hex')}`,
      name: label,
    });

    it('the creator of a venue is its owner, and sees it in GET /v1/venues', async () => {
      const owner = await signUp(t, 'creator');
      const venue = await createVenue(t, owner);
      const mine = (await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200)).body as Array<{ id: string }>;
      expect(mine.map((v) => v.id)).toEqual([venue.id]);
      expect(await members(venue.id, owner)).toEqual([expect.objectContaining({ userId: owner.userId, role: 'owner' })]);
      // Another signed-in user does not see it.
      const stranger = await signUp(t, 'stranger');
      expect((await request(t.baseUrl).get('/v1/venues').set(stranger.auth).expect(200)).body).toEqual([]);
    });

    it('a manager adds hosts only; an owner adds managers and owners', async () => {
      const owner = await signUp(t, 'roles-owner');
      const venue = await createVenue(t, owner);
      const m = newPerson('manager');
      await add(venue.id, owner, { ...m, role: 'manager' }).expect(201);
      const manager = await signIn(t, m.email, m.password);

      const h = newPerson('host');
      const host = (await add(venue.id, manager, { ...h, role: 'host' }).expect(201)).body as {
        userId: string;
        email: string;
        role: Role;
      };
      expect(host).toEqual({
        outcome: 'created',
        message: expect.stringContaining('choose their own'),
        userId: expect.any(String),
        email: h.email,
        name: h.name,
        role: 'host',
      });

      for (const role of ['manager', 'owner'] as const) {
        const p = newPerson(`by-manager-${role}`);
        const e = expectRefusal(await add(venue.id, manager, { ...p, role }), 403, 'FORBIDDEN');
        expect(e.message).toContain(role);
        // Refused means nothing was written: no membership, no account.
        expect((await members(venue.id, owner)).map((x) => x.role).sort()).toEqual(['host', 'manager', 'owner']);
        expect(await dataSourceOf(t).query('SELECT id FROM staff_users WHERE email = $1', [p.email])).toEqual([]);
      }
      // Nor may a manager raise a host to manager, or touch the owner's role.
      expectRefusal(await add(venue.id, manager, { email: h.email, role: 'manager' }), 403, 'FORBIDDEN');
      expectRefusal(await add(venue.id, manager, { email: owner.email, role: 'host' }), 403, 'FORBIDDEN');
      expect(await members(venue.id, owner)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: owner.userId, role: 'owner' }),
          expect.objectContaining({ userId: host.userId, role: 'host' }),
        ]),
      );

      // The owner may add a manager and another owner; the host may add nobody.
      await add(venue.id, owner, { ...newPerson('manager2'), role: 'manager' }).expect(201);
      const o2 = newPerson('owner2');
      await add(venue.id, owner, { ...o2, role: 'owner' }).expect(201);
      const hostSession = await signIn(t, h.email, h.password);
      expectRefusal(await add(venue.id, hostSession, { ...newPerson('by-host'), role: 'host' }), 403, 'FORBIDDEN');
      expect((await members(venue.id, owner)).map((x) => x.role).sort()).toEqual([
        'host',
        'manager',
        'manager',
        'owner',
        'owner',
      ]);
      // The second owner is an owner in deed: it may add a manager.
      const owner2 = await signIn(t, o2.email, o2.password);
      await add(venue.id, owner2, { ...newPerson('manager3'), role: 'manager' }).expect(201);
    });

    it('a member of venue A is 404 at venue B; one person can be host at A and manager at B', async () => {
      const ownerA = await signUp(t, 'owner-a');
      const ownerB = await signUp(t, 'owner-b');
      const venueA = await createVenue(t, ownerA);
      const venueB = await createVenue(t, ownerB);
      const p = newPerson('both');
      await add(venueA.id, ownerA, { ...p, role: 'host' }).expect(201);
      const person = await signIn(t, p.email, p.password);

      const notFound = expectRefusal(await request(t.baseUrl).get(`/v1/venues/${venueB.id}`).set(person.auth), 404, 'NOT_FOUND');
      expectRefusal(await add(venueB.id, person, { ...newPerson('x'), role: 'host' }), 404, 'NOT_FOUND');
      // The same answer as for a venue that does not exist at all.
      const missing = await request(t.baseUrl).get(`/v1/venues/${randomUUID()}`).set(person.auth);
      expect(missing.status).toBe(404);
      expect(errorOf(missing.body)).toEqual(notFound);

      // B's owner invites the existing account as a manager of B: nothing is granted until it is claimed.
      const invited = (await add(venueB.id, ownerB, { email: p.email, role: 'manager' }).expect(201)).body as {
        outcome: string;
        invitation: { token: string };
      };
      expect(invited.outcome).toBe('invited');
      expectRefusal(await request(t.baseUrl).get(`/v1/venues/${venueB.id}`).set(person.auth), 404, 'NOT_FOUND');
      const claimed = await request(t.baseUrl)
        .post('/v1/auth/invitations/claim')
        // A password of their own: the one A's owner chose is refused as the new one (staff-access spec).
        .send({ token: invited.invitation.token, password: `${p.password}-mine`, currentPassword: p.password })
        .expect(201);
      // Claiming ended the earlier session; the fresh one works at both venues.
      expectRefusal(await request(t.baseUrl).get(`/v1/venues/${venueA.id}`).set(person.auth), 401, 'UNAUTHENTICATED');
      person.auth = bearer((claimed.body as { token: string }).token);
      expectRefusal(await request(t.baseUrl).get(`/v1/venues/${venueA.id}/members`).set(person.auth), 403, 'FORBIDDEN');
      await request(t.baseUrl).get(`/v1/venues/${venueB.id}/members`).set(person.auth).expect(200);
      await request(t.baseUrl).get(`/v1/venues/${venueA.id}`).set(person.auth).expect(200);
      const mine = (await request(t.baseUrl).get('/v1/venues').set(person.auth).expect(200)).body as Array<{ id: string }>;
      expect(mine.map((v) => v.id).sort()).toEqual([venueA.id, venueB.id].sort());
      expect((await members(venueA.id, ownerA)).find((x) => x.userId === person.userId)?.role).toBe('host');
      expect((await members(venueB.id, ownerB)).find((x) => x.userId === person.userId)?.role).toBe('manager');
    });

    it('adding an existing account never changes its password', async () => {
      const ownerA = await signUp(t, 'pw-owner-a');
      const ownerB = await signUp(t, 'pw-owner-b');
      const venueA = await createVenue(t, ownerA);
      const venueB = await createVenue(t, ownerB);
      const p = newPerson('keeps-password');
      await add(venueA.id, ownerA, { ...p, role: 'host' }).expect(201);
      const other = `pw-${randomBytes(8).toString('hex')}`;
      await add(venueB.id, ownerB, { email: p.email, password: other, role: 'host' }).expect(201);
      await login(t, p.email, p.password).expect(201);
      expectRefusal(await login(t, p.email, other, freshAddress()), 401, 'UNAUTHENTICATED');
    });

    it('a venue keeps at least one owner', async () => {
      const owner = await signUp(t, 'last-owner');
      const venue = await createVenue(t, owner);
      const e = expectRefusal(await add(venue.id, owner, { email: owner.email, role: 'manager' }), 400, 'VALIDATION');
      expect(e.message).toBe('A venue keeps at least one owner.');
      const p = newPerson('second-owner');
      await add(venue.id, owner, { ...p, role: 'owner' }).expect(201);
      // With a second owner, the first may step down to manager, and is then a manager in deed.
      await add(venue.id, owner, { email: owner.email, role: 'manager' }).expect(201);
      expectRefusal(await add(venue.id, owner, { ...newPerson('m'), role: 'manager' }), 403, 'FORBIDDEN');
      await add(venue.id, owner, { ...newPerson('h'), role: 'host' }).expect(201);
    });

    it('without a password, a new email and an existing account get the same answer: an invitation granting nothing', async () => {
      const owner = await signUp(t, 'nopw-owner');
      const venue = await createVenue(t, owner);
      const existing = await account(t, 'nopw-existing');
      const answers = [];
      for (const email of [`nopw-${unique()}@example.test`, existing.email]) {
        const res = await add(venue.id, owner, { email, role: 'host' }).expect(201);
        const body = res.body as { outcome: string; message: string; invitation: Record<string, unknown> };
        answers.push({
          keys: Object.keys(body).sort(),
          outcome: body.outcome,
          message: body.message.replace(email, '<email>'),
          invitation: Object.keys(body.invitation).sort(),
        });
      }
      // No 400-versus-201 difference any more: nothing tells the manager whether an account exists.
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]?.outcome).toBe('invited');
      expect(await members(venue.id, owner)).toHaveLength(1);
    });
  });

  describe('audit trail', () => {
    interface AuditRow {
      action: string;
      actor: string;
      at: Date | string;
      venue_id: string | null;
      subject_user_id: string | null;
      ip: string | null;
      details: Record<string, unknown>;
    }
    const rowsFrom = async (ip: string): Promise<AuditRow[]> =>
      dataSourceOf(t).query(
        'SELECT action, actor, at, venue_id, subject_user_id, ip, details FROM audit_events WHERE ip = $1 ORDER BY id',
        [ip],
      );

    it('records a login, a failed login, adding a member and a logout, with actor, time and address', async () => {
      const a = await account(t, 'audited');
      const owner = await signUp(t, 'audit-owner');
      const venue = await createVenue(t, owner);
      const now = clock.now();
      const [okFrom, failFrom, addFrom] = [freshAddress(), freshAddress(), freshAddress()];

      const { token } = (await login(t, a.email, a.password, okFrom).expect(201)).body as { token: string };
      await request(t.baseUrl).delete('/v1/auth/sessions/current').set(bearer(token)).set('X-Forwarded-For', okFrom).expect(204);
      await login(t, a.email.toUpperCase(), 'wrong-password', failFrom).expect(401);
      const newEmail = `audited-member-${unique()}@example.test`;
      const added = await request(t.baseUrl)
        .post(`/v1/venues/${venue.id}/members`)
        .set(owner.auth)
        .set('X-Forwarded-For', addFrom)
        .send({ email: newEmail, password: `pw-${randomBytes(8).toString('hex')}`, role: 'host' })
        .expect(201);
      const memberId = (added.body as { userId: string }).userId;

      const at = (r: AuditRow): number => new Date(r.at).getTime();
      const ok = await rowsFrom(okFrom);
      expect(ok.map((r) => [r.action, r.actor, r.subject_user_id, r.venue_id])).toEqual([
        ['login', `staff:${a.id}`, a.id, null],
        ['logout', `staff:${a.id}`, a.id, null],
      ]);
      const failed = await rowsFrom(failFrom);
      expect(failed.map((r) => [r.action, r.actor, r.subject_user_id, r.details['email']])).toEqual([
        ['login-failed', 'public', a.id, a.email],
      ]);
      const membership = await rowsFrom(addFrom);
      expect(membership.map((r) => [r.action, r.actor, r.venue_id, r.subject_user_id, r.details['role']])).toEqual([
        ['account-created', `staff:${owner.userId}`, venue.id, memberId, undefined],
        ['membership-added', `staff:${owner.userId}`, venue.id, memberId, 'host'],
      ]);
      // The app clock stands still here: each row carries exactly its time.
      for (const r of [...ok, ...failed, ...membership]) expect(at(r)).toBe(now.getTime());

      // A failed login for an unknown email is recorded too, naming the email and no subject.
      const unknownFrom = freshAddress();
      const nobody = `nobody-${unique()}@example.test`;
      await login(t, nobody, 'whatever-password', unknownFrom).expect(401);
      expect((await rowsFrom(unknownFrom)).map((r) => [r.action, r.actor, r.subject_user_id, r.details['email']])).toEqual([
        ['login-failed', 'public', null, nobody],
      ]);
      // And the venue's own creation recorded its owner.
      const created: AuditRow[] = await dataSourceOf(t).query(
        `SELECT action, actor, at, venue_id, subject_user_id, ip, details FROM audit_events WHERE venue_id = $1 AND action = 'membership-added' ORDER BY id`,
        [venue.id],
      );
      expect(created.map((r) => [r.actor, r.subject_user_id, r.details['role']])).toEqual([
        [`staff:${owner.userId}`, owner.userId, 'owner'],
        [`staff:${owner.userId}`, memberId, 'host'],
      ]);
    });
  });
});

describe('failed-attempt limits (AUTH_RATE_LIMIT=3)', () => {
  describe('in a 2-second window', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ env: { AUTH_RATE_LIMIT: '3', AUTH_RATE_WINDOW_SECONDS: '2' } });
    });
    afterAll(() => t.close());

    it('three wrong passwords, then 429 even for the right one; once the window has passed the right password works', async () => {
      const a = await account(t, 'limited');
      const from = freshAddress();
      const started = Date.now();
      for (let i = 0; i < 3; i++) expectRefusal(await login(t, a.email, `wrong-${i}`, from), 401, 'UNAUTHENTICATED');
      const limited = expectRefusal(await login(t, a.email, a.password, from), 429, 'RATE_LIMITED');
      expect(limited.message.length).toBeGreaterThan(0);
      expectRefusal(await login(t, a.email, a.password, from), 429, 'RATE_LIMITED');
      // Everything above happened inside the window, or the 429s would prove nothing.
      expect(Date.now() - started).toBeLessThan(2000);

      // The limiter keeps wall-clock time: wait the window out, then poll briefly.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 2200 - Date.now())));
      let res = await login(t, a.email, a.password, from);
      for (let tries = 0; res.status === 429 && tries < 15; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        res = await login(t, a.email, a.password, from);
      }
      expect(res.status).toBe(201);
      await request(t.baseUrl)
        .get('/v1/venues')
        .set(bearer((res.body as { token: string }).token))
        .expect(200);
    });
  });

  describe('in a 1-second window: the back-off doubles', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ env: { AUTH_RATE_LIMIT: '3', AUTH_RATE_WINDOW_SECONDS: '1' } });
    });
    afterAll(() => t.close());

    it('each further lockout of the same account and address waits twice as long (Retry-After says how long)', async () => {
      const a = await account(t, 'backoff');
      const from = freshAddress();
      const lockout = async (): Promise<number> => {
        for (let i = 0; i < 3; i++) expectRefusal(await login(t, a.email, `wrong-${i}`, from), 401, 'UNAUTHENTICATED');
        const res = await login(t, a.email, a.password, from);
        expectRefusal(res, 429, 'RATE_LIMITED');
        return Number(res.headers['retry-after']);
      };
      expect(await lockout()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await lockout()).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 2200));
      expect(await lockout()).toBe(4);
      // Meanwhile the owner, from another address, signs in.
      await login(t, a.email, a.password, freshAddress()).expect(201);
    });
  });

  describe('in a 60-second window', () => {
    /** The account slowdown under test: well above one sign-in's own time, even on a busy machine. */
    const SLOWDOWN_MS = 2500;
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({
        env: {
          AUTH_RATE_LIMIT: '3',
          AUTH_RATE_WINDOW_SECONDS: '60',
          AUTH_ADDRESS_LIMIT: '8',
          AUTH_ACCOUNT_LIMIT: '3',
          // Long enough to tell apart from a sign-in's own time on a loaded machine (argon2 took 800 ms once).
          AUTH_ACCOUNT_SLOWDOWN_MS: String(SLOWDOWN_MS),
        },
      });
    });
    afterAll(() => t.close());

    it('the owner signs in from a second address while the first is locked out', async () => {
      const owner = await account(t, 'lockout-owner');
      const attacker = freshAddress();
      for (let i = 0; i < 3; i++) expectRefusal(await login(t, owner.email, `guess-${i}`, attacker), 401, 'UNAUTHENTICATED');
      expectRefusal(await login(t, owner.email, owner.password, attacker), 429, 'RATE_LIMITED');
      const res = await login(t, owner.email, owner.password, freshAddress()).expect(201);
      await request(t.baseUrl)
        .get('/v1/venues')
        .set(bearer((res.body as { token: string }).token))
        .expect(200);
      // The first address is still locked out.
      expectRefusal(await login(t, owner.email, `guess-again`, attacker), 429, 'RATE_LIMITED');
    });

    it('per account: failures from many addresses slow the account down, one try per address, but never lock its owner out', async () => {
      const x = await account(t, 'acct-x');
      const y = await account(t, 'acct-y');
      for (let i = 0; i < 3; i++) expectRefusal(await login(t, x.email, `wrong-${i}`, freshAddress()), 401, 'UNAUTHENTICATED');
      // Past the account's ceiling: a new address gets one try, and it is slowed.
      const guesser = freshAddress();
      expectRefusal(await login(t, x.email, 'wrong-again', guesser), 401, 'UNAUTHENTICATED');
      expectRefusal(await login(t, x.email, 'wrong-once-more', guesser), 429, 'RATE_LIMITED');
      const started = Date.now();
      await login(t, x.email.toUpperCase(), x.password, freshAddress()).expect(201);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_MS);
      // y's account is not x's.
      const fast = Date.now();
      await login(t, y.email, y.password, guesser).expect(201);
      expect(Date.now() - fast).toBeLessThan(SLOWDOWN_MS);
    });

    it('per address: failures against different accounts add up for that address; those accounts still sign in elsewhere', async () => {
      const users = await Promise.all(Array.from({ length: 9 }, (_, i) => account(t, `addr-${i}`)));
      const from = freshAddress();
      for (const u of users.slice(0, 8)) expectRefusal(await login(t, u.email, 'wrong-password', from), 401, 'UNAUTHENTICATED');
      const last = users[8] as Account;
      expectRefusal(await login(t, last.email, last.password, from), 429, 'RATE_LIMITED');
      await login(t, last.email, last.password, freshAddress()).expect(201);
      await login(t, (users[0] as Account).email, (users[0] as Account).password, freshAddress()).expect(201);
    });

    it('holds under concurrency: of many wrong passwords sent at once, at most the limit are tried', async () => {
      const c = await account(t, 'acct-burst');
      const from = freshAddress();
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(t, c.email, `burst-${i}`, from)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      // Each 401 is a password that was actually checked; the limit allows 3 per window.
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
      expectRefusal(await login(t, c.email, c.password, from), 429, 'RATE_LIMITED');
      // Elsewhere, the owner still signs in.
      await login(t, c.email, c.password, freshAddress()).expect(201);
    });

    it('a successful login clears the count for that account and address (but only a success does)', async () => {
      const z = await account(t, 'acct-z');
      const from = freshAddress();
      for (let i = 0; i < 2; i++) await login(t, z.email, `wrong-${i}`, from).expect(401);
      await login(t, z.email, z.password, from).expect(201);
      for (let i = 0; i < 2; i++) await login(t, z.email, `wrong-again-${i}`, from).expect(401);
      // Four failures in the window, but a success between them: not limited.
      await login(t, z.email, z.password, from).expect(201);
      // Three failures in a row are.
      for (let i = 0; i < 3; i++) await login(t, z.email, `wrong-last-${i}`, from).expect(401);
      expectRefusal(await login(t, z.email, z.password, from), 429, 'RATE_LIMITED');
    });
  });

  describe('TRUST_PROXY', () => {
    it('by default X-Forwarded-For is ignored: the socket address is the caller', async () => {
      const t = await startApp({ env: { TRUST_PROXY: '', AUTH_RATE_LIMIT: '2', AUTH_ADDRESS_LIMIT: '2' } });
      try {
        const a = await account(t, 'xff-ignored');
        // Rotating the header does not buy more tries: both failures count against 127.0.0.1.
        await login(t, a.email, 'wrong-1', freshAddress()).expect(401);
        await login(t, a.email, 'wrong-2', freshAddress()).expect(401);
        expectRefusal(await login(t, a.email, a.password, freshAddress()), 429, 'RATE_LIMITED');
        const rows: Array<{ ip: string }> = await dataSourceOf(t).query(
          `SELECT ip FROM audit_events WHERE action = 'login-failed' AND subject_user_id = $1`,
          [a.id],
        );
        expect(rows.map((r) => r.ip.replace(/^::ffff:/, ''))).toEqual(['127.0.0.1', '127.0.0.1']);
      } finally {
        await t.close();
      }
    });

    it('trusted (TRUST_PROXY=loopback), the forwarded address is the caller', async () => {
      const t = await startApp({ env: { TRUST_PROXY: 'loopback', AUTH_RATE_LIMIT: '2', AUTH_ADDRESS_LIMIT: '2' } });
      try {
        const a = await account(t, 'xff-trusted');
        const from = freshAddress();
        await login(t, a.email, 'wrong-1', from).expect(401);
        await login(t, a.email, a.password, freshAddress()).expect(201);
        const rows: Array<{ ip: string }> = await dataSourceOf(t).query(
          `SELECT ip FROM audit_events WHERE action = 'login-failed' AND subject_user_id = $1`,
          [a.id],
        );
        expect(rows.map((r) => r.ip)).toEqual([from]);
      } finally {
        await t.close();
      }
    });
  });
});
