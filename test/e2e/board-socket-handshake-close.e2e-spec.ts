import pg from 'pg';
import { BOARD_SOCKETS_PER_USER } from '@hostboard/board';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A board socket whose connection closes while the server still reads its session (a phone on a weak
 * signal, a slow database, or a script opening and dropping sockets): its place among the login's
 * BOARD_SOCKETS_PER_USER must not be kept. It was, for good (its close had come before the place was
 * taken, so nothing gave it back), and after that many drops every board of the login on that api
 * process was refused TOO_MANY_BOARDS until a restart.
 */
describeWithServer('a table lock held by another connection of a PostgreSQL server')(
  'board sockets closed during their handshake',
  () => {
    let t: TestApp;
    let staff: Staff;
    const clients: BoardClient[] = [];

    beforeAll(async () => {
      t = await startApp();
      staff = await signUp(t, 'weak-signal');
    });
    afterAll(async () => {
      for (const c of clients) c.close();
      await t.close();
    });

    it('gives back the place of a socket that closed before its session was read', async () => {
      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        // The session reads wait behind this lock, as they would behind a slow database.
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE staff_sessions IN ACCESS EXCLUSIVE MODE');
        const dropped = Array.from({ length: BOARD_SOCKETS_PER_USER + 3 }, () => new BoardClient(t.baseUrl, staff.token));
        clients.push(...dropped);
        await waitFor(() => dropped.every((c) => c.socket.io.engine?.readyState === 'open'), 10_000, 'the connections');
        for (let i = 0; i < 100; i++) {
          const waiting = await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          );
          if ((waiting.rows[0]?.n ?? 0) > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, 300));
        // Every one drops before the server has read its session.
        for (const c of dropped) c.socket.io.engine.close();
        await new Promise((r) => setTimeout(r, 300));
        await holder.query('COMMIT');
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
      // The reads answer, for sockets long gone; the login's next board connects.
      await new Promise((r) => setTimeout(r, 500));
      const next = new BoardClient(t.baseUrl, staff.token);
      clients.push(next);
      await next.connected();
      expect(next.socket.connected).toBe(true);
    });
  },
);
