import pg from 'pg';
import { builtApi, call, ownerVenue, sleep, type BuiltProcess } from '../support/built-stack.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * A deploy stops an api process with SIGTERM while requests are in flight. Each accepted request
 * must be answered, and the process must then exit promptly: a container runtime sends SIGKILL after
 * its grace period (10 s by default in docker and compose), and a process killed there loses what
 * its shutdown had still to do (the database pool's goodbye, the last buffered log lines). A
 * keep-alive connection whose request finishes after the stop began used to keep the process up
 * until the connection's idle timeout (72 s), since the server closed idle connections only once.
 */
describeWithServer('the built api stopping on a PostgreSQL server')('an api process stopped with a request in flight', () => {
  let db: TestDatabase;
  let api: { proc: BuiltProcess; base: string } | undefined;

  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    api?.proc.child.kill('SIGKILL');
    await db.drop();
  });

  it('answers the request, then exits within a few seconds', async () => {
    api = await builtApi({ DATABASE_URL: db.url, REDIS_URL: undefined });
    const { proc, base } = api;
    const { token, venueId } = await ownerVenue(base, 300);

    // A psql session holds the venue's row, so the join waits inside the api when SIGTERM comes.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM venues WHERE id = $1 FOR UPDATE', [venueId]);
      const join = call(base, 'POST', `/v1/venues/${venueId}/queue`, { name: 'In flight', partySize: 2 }, token);
      for (let waited = 0; ; waited += 50) {
        const { rows } = await holder.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (rows[0]!.n > 0) break;
        if (waited > 15_000) throw new Error('the join never waited for the venue lock');
        await sleep(50);
      }
      const exited = new Promise<number>((done) => proc.child.once('exit', () => done(Date.now())));
      const stoppedAt = Date.now();
      proc.child.kill('SIGTERM');
      await sleep(500);
      await holder.query('COMMIT');

      const answer = await join;
      expect(answer.status).toBe(201);
      const gone = await Promise.race([exited, sleep(20_000).then(() => undefined)]);
      expect(
        gone === undefined
          ? 'still running 20 s after SIGTERM'
          : `exited ${Math.round((gone - stoppedAt) / 1000)} s after SIGTERM`,
      ).toMatch(/^exited [0-9] s/);
      const rows = await holder.query<{ n: number }>('SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1', [
        venueId,
      ]);
      expect(rows.rows[0]!.n).toBe(1);
    } finally {
      await holder.end();
    }
  }, 120_000);
});
