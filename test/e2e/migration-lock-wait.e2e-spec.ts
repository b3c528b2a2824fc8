import { getDataSourceToken } from '@nestjs/typeorm';
import pg from 'pg';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../libs/persistence/src/migrations/index.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase } from '../support/test-database.js';

/**
 * A new build starts on a database the running build serves, with a migration to apply, while some
 * session keeps a transaction open on the migration's table (a report, an operator's psql, a client
 * gone mid-transaction). The migration's ALTER TABLE must not sit in that table's lock queue for as
 * long as the transaction lasts: every other session's reads of the table queue behind it, and the
 * running build stops answering. It waits a little at a time, steps aside, and tries again.
 */
describeWithServer('a migration on a PostgreSQL server while other sessions use it')(
  'a new build migrating while a long transaction holds its table',
  () => {
    it('does not hold up the running processes: other sessions keep reading the table, and the migration applies once it is free', async () => {
      const db = await freshDatabase();
      const last = new MIGRATIONS[MIGRATIONS.length - 1]!().name;
      const first = await startApp({ db });
      const ds = first.app.get<DataSource>(getDataSourceToken());
      await ds.undoLastMigration({ transaction: 'each' });
      await first.app.close();

      const session = async (): Promise<pg.Client> => {
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        return c;
      };
      const holder = await session();
      const reader = await session();
      let second: TestApp | undefined;
      let starting: Promise<TestApp | undefined> = Promise.resolve(undefined);
      try {
        // The long transaction: it read the table the last migration alters, and stays open.
        await holder.query('BEGIN');
        await holder.query('SELECT count(*) FROM table_combination_tables');

        starting = startApp({ db }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 2500));

        // What a running api does meanwhile, given 4 s: before, it waited behind the ALTER for as
        // long as the long transaction lasted.
        await reader.query("SET statement_timeout = '4s'");
        const t0 = Date.now();
        const read = await reader.query('SELECT count(*)::int AS n FROM table_combination_tables').then(
          (r: pg.QueryResult<{ n: number }>) => ({ ok: true, n: r.rows[0]?.n }),
          (err: Error) => ({ ok: false, n: err.message }),
        );
        expect(read).toEqual({ ok: true, n: 0 });
        expect(Date.now() - t0).toBeLessThan(3000);

        await holder.query('COMMIT');
        second = await starting;
        if (!second) throw new Error('the second build did not start');
        await request(second.baseUrl).get('/ready').expect(200);
        const applied = await reader.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id');
        expect(applied.rows.map((r) => r.name)).toEqual(MIGRATIONS.map((M) => new M().name));
        expect(applied.rows.filter((r) => r.name === last)).toHaveLength(1);
      } finally {
        await holder.end().catch(() => undefined);
        await reader.end().catch(() => undefined);
        second ??= await starting;
        await second?.app.close();
        await db.drop();
      }
    }, 90_000);
  },
);
