import pg from 'pg';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { addMember, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * A staff session that stops being one while its command waits for the venue's lock: the guard read
 * it live before the wait, and the command ran after it. The session is read again under the lock
 * (`stillAdmitted`, with the COMMIT): a session signed out everywhere, one whose row is gone, and one
 * past its `expires_at` by the app's own clock (a manual one here, far from the database's now()) are
 * each refused 401 as any later request is, and the command writes nothing.
 */
describeWithServer('row locks held across connections of a PostgreSQL server')(
  'a command in flight when its staff session ends',
  () => {
    // Far from the database's own now(): the session's expiry is the app's clock's, not PostgreSQL's.
    const clock = new ManualClock(new Date('2027-03-02T16:20:00.000Z'));
    let t: TestApp;
    let owner: Staff;
    let v: Sandbox;

    beforeAll(async () => {
      t = await startApp({ clock });
      owner = await signUp(t, 'owner');
      v = await sandboxVenue(t, owner, { clock: '2027-03-02T19:10:00.000Z', tables: [{ label: 'P6', capacity: 6 }] });
    });
    afterAll(async () => {
      await t.close();
    });

    /** Sends `send` while another connection holds the venue's row lock, does `change` while it waits, then lets it go. */
    const whileLocked = async (send: () => request.Test, change: () => Promise<unknown>): Promise<request.Response> => {
      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [v.id]);
        const answer = send().then((r) => r);
        for (let i = 0; i < 100; i++) {
          const waiting = await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          if ((waiting.rows[0]?.n ?? 0) > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await change();
        await holder.query('COMMIT');
        return await answer;
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
    };
    const db = (): DataSource => t.app.get<DataSource>(getDataSourceToken());
    const entriesNamed = async (name: string): Promise<number> => {
      const rows: Array<{ n: number }> = await db().query(
        'SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1 AND name = $2',
        [v.id, name],
      );
      return rows[0]?.n ?? 0;
    };
    const join = (who: Staff, name: string) => () =>
      request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue`)
        .set(who.auth)
        .send({ ...party(4), name });
    const outcome = (res: request.Response) => ({
      status: res.status,
      code: (res.body as { error?: { code: string } }).error?.code,
    });

    it('a host signed out everywhere from another screen: 401, nobody queued', async () => {
      const host = await addMember(t, v.id, owner, 'host');
      const other = await signIn(t, host.email, host.password);
      const name = 'Oskar Lindqvist';
      const res = await whileLocked(join(host, name), () =>
        request(t.baseUrl).delete('/v1/auth/sessions').set(other.auth).expect(204),
      );
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      expect(await entriesNamed(name)).toBe(0);
    }, 30_000);

    it('a host whose session row is deleted meanwhile: 401, nobody queued', async () => {
      const host = await addMember(t, v.id, owner, 'host');
      const name = 'Petra Vukovic';
      const res = await whileLocked(join(host, name), () =>
        db().query('DELETE FROM staff_sessions WHERE user_id = $1', [host.userId]),
      );
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      expect(await entriesNamed(name)).toBe(0);
    }, 30_000);

    it('a host whose session runs out (by the app’s clock) meanwhile: 401, nobody queued; a new session joins', async () => {
      const host = await addMember(t, v.id, owner, 'host');
      const name = 'Quentin Abara';
      // Sessions last SESSION_TTL_HOURS (12): 12 h 1 min on, this one is over.
      const res = await whileLocked(join(host, name), async () => clock.advance((12 * 60 + 1) * 60_000));
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      expect(await entriesNamed(name)).toBe(0);
      // The app's clock is hours from the database's now(): a live session is still admitted.
      const again = await signIn(t, host.email, host.password);
      await join(again, name)().expect(201);
      expect(await entriesNamed(name)).toBe(1);
    }, 30_000);

    it('a manager signed out everywhere while removing a host (a staff list command): 401, the host stays', async () => {
      // The owner's session of the start ran out with the clock above.
      owner = await signIn(t, owner.email, owner.password);
      const manager = await addMember(t, v.id, owner, 'manager');
      const other = await signIn(t, manager.email, manager.password);
      const host = await addMember(t, v.id, owner, 'host');
      const res = await whileLocked(
        () => request(t.baseUrl).delete(`/v1/venues/${v.id}/members/${host.userId}`).set(manager.auth),
        () => request(t.baseUrl).delete('/v1/auth/sessions').set(other.auth).expect(204),
      );
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      const members = (await request(t.baseUrl).get(`/v1/venues/${v.id}/members`).set(owner.auth).expect(200)).body as Array<{
        userId: string;
      }>;
      expect(members.some((m) => m.userId === host.userId)).toBe(true);
    }, 30_000);
  },
);
