import pg from 'pg';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * A staff member removed (or made a host) while their command waits for the venue's lock: the guard
 * had read the membership before the removal committed, and the command ran after it, as a member
 * who no longer was one. A script sending commands as its removal is pressed got the last ones in.
 * The membership is read again under the venue's lock: the waiting command is refused as any later
 * one is (404 for a removed member, 403 for a role now too low), and writes nothing.
 */
describeWithServer('row locks held across connections of a PostgreSQL server')(
  'a command in flight when its staff member is removed',
  () => {
    let t: TestApp;
    let owner: Staff;
    let v: Sandbox;

    beforeAll(async () => {
      t = await startApp();
      owner = await signUp(t, 'owner');
      v = await sandboxVenue(t, owner, { clock: '2026-11-13T23:40:00.000Z', tables: [{ label: 'R5', capacity: 5 }] });
    });
    afterAll(async () => {
      await t.close();
    });

    /**
     * Sends `send` while another connection holds the venue's row lock, then, in that connection,
     * does `change` (as a removal does under the same lock) and commits; answers the command's answer.
     */
    const whileLocked = async (
      send: () => request.Test,
      change: (c: pg.Client) => Promise<unknown>,
    ): Promise<request.Response> => {
      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [v.id]);
        const answer = send().then((r) => r);
        // The command has passed the guard and waits for the lock.
        for (let i = 0; i < 100; i++) {
          const waiting = await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          if ((waiting.rows[0]?.n ?? 0) > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await change(holder);
        await holder.query('COMMIT');
        return await answer;
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
    };
    const entriesNamed = async (name: string): Promise<number> => {
      const rows: Array<{ n: number }> = await t.app
        .get<DataSource>(getDataSourceToken())
        .query('SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1 AND name = $2', [v.id, name]);
      return rows[0]?.n ?? 0;
    };

    it('a removed host’s desk join is refused NOT_FOUND and queues nobody', async () => {
      const host = await addMember(t, v.id, owner, 'host');
      const name = 'Ilse Marchetti';
      const res = await whileLocked(
        () =>
          request(t.baseUrl)
            .post(`/v1/venues/${v.id}/queue`)
            .set(host.auth)
            .send({ ...party(3), name }),
        (c) => c.query('DELETE FROM venue_memberships WHERE venue_id = $1 AND user_id = $2', [v.id, host.userId]),
      );
      expect({ status: res.status, code: (res.body as { error?: { code: string } }).error?.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(await entriesNamed(name)).toBe(0);
    }, 30_000);

    it('a manager made a host while adding a table is refused FORBIDDEN and adds none', async () => {
      const manager = await addMember(t, v.id, owner, 'manager');
      const res = await whileLocked(
        () => request(t.baseUrl).post(`/v1/venues/${v.id}/tables`).set(manager.auth).send({ label: 'Z9', capacity: 3 }),
        (c) => c.query("UPDATE venue_memberships SET role = 'host' WHERE venue_id = $1 AND user_id = $2", [v.id, manager.userId]),
      );
      expect({ status: res.status, code: (res.body as { error?: { code: string } }).error?.code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const tables = (await request(t.baseUrl).get(`/v1/venues/${v.id}/tables`).set(owner.auth).expect(200)).body as Array<{
        label: string;
      }>;
      expect(tables.map((x) => x.label)).toEqual(['R5']);
    }, 30_000);

    it('an owner still leaves the venue, or makes themselves a host, when another owner stays', async () => {
      const second = await addMember(t, v.id, owner, 'owner');
      const third = await addMember(t, v.id, owner, 'owner');
      await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/members/${second.userId}`)
        .set(second.auth)
        .send({ role: 'host' })
        .expect(200);
      await request(t.baseUrl).delete(`/v1/venues/${v.id}/members/${third.userId}`).set(third.auth).expect(204);
      const members = (await request(t.baseUrl).get(`/v1/venues/${v.id}/members`).set(owner.auth).expect(200)).body as Array<{
        userId: string;
        role: string;
      }>;
      expect(members.find((m) => m.userId === second.userId)?.role).toBe('host');
      expect(members.some((m) => m.userId === third.userId)).toBe(false);
    }, 30_000);
  },
);
