import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { clusterShare, loadConfig, lockVenueRow } from '@hostboard/core';
import { fittedPoolSize, MIN_POOL } from '@hostboard/persistence';
import { startApp, type TestApp } from '../support/test-app.js';
import {
  backends,
  describeWithServer,
  describeWithServerAndRedis,
  freshDatabase,
  type TestDatabase,
} from '../support/test-database.js';
import { startWorker } from '../support/test-worker.js';
import { createVenue, signUp } from '../support/staff.js';

interface LimitedRole {
  /** The fresh database, as its owner: a role limited to `limit` connections. */
  url: string;
  role: string;
  db: TestDatabase;
  /** A superuser's connection to the server. */
  admin: pg.Client;
  drop: () => Promise<void>;
}

/** Superusers are exempt from connection limits: a role of its own, limited, that owns a fresh database. */
async function limitedRole(limit: number): Promise<LimitedRole> {
  const role = `hb_pool_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${limit}`);
  const db = await freshDatabase();
  await admin.query(`ALTER DATABASE ${new URL(db.url ?? '').pathname.slice(1)} OWNER TO ${role}`);
  const u = new URL(db.url ?? '');
  u.username = role;
  u.password = '';
  return {
    url: u.toString(),
    role,
    db,
    admin,
    drop: async () => {
      await db.drop();
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    },
  };
}

/**
 * Warm connections (DATABASE_POOL_WARM): opened at start and kept while idle (a cluster's processes split them),
 * so a burst after a quiet spell does not wait for new backends (11–23 ms each here, and cold).
 */
describeWithServer('the connection pool of a PostgreSQL server')('connection pool on PostgreSQL', () => {
  it('refuses more warm connections than the pool holds, naming both settings', () => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '4', DATABASE_POOL_WARM: '5' })).toThrow(
      'Configuration error: DATABASE_POOL_WARM (5) is more than DATABASE_POOL_SIZE (4)',
    );
    expect(() => loadConfig({ DATABASE_POOL_WARM: '-1' })).toThrow(/DATABASE_POOL_WARM/);
  });

  it('shrinks the default warm count to a smaller pool instead of refusing to start', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).DATABASE_POOL_WARM).toBe(4);
    expect(loadConfig({ DATABASE_POOL_SIZE: '30' }).DATABASE_POOL_WARM).toBe(8);
  });

  it('splits the warm count among the processes of a cluster, at least one each', () => {
    expect(clusterShare(8, {})).toBe(8);
    expect(clusterShare(8, { HOSTBOARD_CLUSTER_SIZE: '2' })).toBe(4);
    expect(clusterShare(8, { HOSTBOARD_CLUSTER_SIZE: '3' })).toBe(3);
    expect(clusterShare(8, { HOSTBOARD_CLUSTER_SIZE: '16' })).toBe(1);
    expect(clusterShare(0, { HOSTBOARD_CLUSTER_SIZE: '16' })).toBe(0);
    expect(clusterShare(8, { HOSTBOARD_CLUSTER_SIZE: 'many' })).toBe(8);
  });

  describe('by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp();
    });
    afterAll(() => t.close());

    it('opens eight connections at start, and holds at least those after a burst', async () => {
      const url = t.db.url ?? '';
      expect(t.config.DATABASE_POOL_WARM).toBe(8);
      expect(await backends(url)).toBeGreaterThanOrEqual(8);
      const owner = await signUp(t, 'pool');
      const reads = await Promise.all(Array.from({ length: 30 }, () => request(t.baseUrl).get('/v1/venues').set(owner.auth)));
      expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
      const afterBurst = await backends(url);
      expect(afterBurst).toBeGreaterThanOrEqual(8);
      expect(afterBurst).toBeLessThanOrEqual(t.config.DATABASE_POOL_SIZE);
      // pg-pool closes idle connections only above its minimum (`min`): those above eight close after a
      // minute unused, on pg-pool's wall-clock timer, which this test does not wait for.
    });
  });

  it('with DATABASE_POOL_WARM=0, opens only what start-up used', async () => {
    const t = await startApp({ env: { DATABASE_POOL_WARM: '0' } });
    try {
      expect(await backends(t.db.url ?? '')).toBeLessThanOrEqual(2);
    } finally {
      await t.close();
    }
  });

  describe('on a server with fewer connections to give', () => {
    let limited: LimitedRole;
    let url: string;
    beforeAll(async () => {
      limited = await limitedRole(3);
      url = limited.url;
    });
    afterAll(() => limited.drop());

    it('starts on the connections it could open and serves requests', async () => {
      const t = await startApp({ db: { url, drop: async () => undefined } });
      try {
        // Its pool is fitted to the role's limit of 3: the least a process needs (two: the migration
        // lock and the migrating connection), all warm.
        expect(await backends(url)).toBe(MIN_POOL);
        const owner = await signUp(t, 'pool-short');
        await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200);
      } finally {
        await t.close();
      }
    });
  });
});

/**
 * A pool fitted to what the server gives: past a role's, a database's or the server's connection limit
 * every extra connection attempt fails the request that made it (a 503), so a process's pool takes
 * only its share (the api's processes 60 % together, the worker's 20 %), and a burst waits its turn.
 */
describeWithServer('connection limits of a PostgreSQL server')('a pool within the connections the server gives', () => {
  let limited: LimitedRole;
  let url: string;
  let role: string;
  let db: TestDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    limited = await limitedRole(10);
    ({ url, role, db, admin } = limited);
  });
  afterAll(() => limited.drop());

  it('splits the budget by role and by process, never below two nor above DATABASE_POOL_SIZE', () => {
    expect(fittedPoolSize(20, null, 'api', 1)).toBe(20);
    expect(fittedPoolSize(20, 97, 'api', 2)).toBe(20); // PostgreSQL's default of 100, two api processes
    expect(fittedPoolSize(20, 97, 'api', 16)).toBe(3); // sixteen: 58 between them
    expect(fittedPoolSize(20, 97, 'worker', 1)).toBe(19);
    expect(fittedPoolSize(20, 10, 'api', 1)).toBe(6);
    expect(fittedPoolSize(20, 3, 'worker', 4)).toBe(MIN_POOL);
    expect(fittedPoolSize(4, 1000, 'api', 1)).toBe(4);
  });

  it('a burst larger than the budget waits for connections instead of failing (role limit 10: a pool of 6)', async () => {
    const t = await startApp({ db: { url, drop: async () => undefined } });
    let holder: pg.Client | undefined;
    try {
      const owner = await signUp(t, 'budget');
      // Seven venues, two joins each: a process lets two of one venue's commands hold connections at
      // once (VenueTurns), so the burst needs several venues to ask for more connections than the pool has.
      const venues: Array<{ id: string }> = [];
      for (let i = 0; i < 7; i++) venues.push(await createVenue(t, owner, { preset: 'workshop', poolCapacity: 100 }));
      // Every join of the burst takes a connection and waits behind these locks, so the pool grows to its
      // limit: with a pool of 20, the role's limit would refuse the connections past 10.
      // A superuser's connection on the same database: outside the role's limit.
      holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM venues WHERE id = ANY($1::uuid[]) FOR UPDATE', [venues.map((v) => v.id)]);
      const burst = Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          request(t.baseUrl)
            .post(`/v1/venues/${venues[i % 7]?.id}/queue`)
            .set(owner.auth)
            .send({ name: `Burst ${i}`, partySize: 1, email: `burst-${i}-${randomBytes(3).toString('hex')}@example.test` }),
        ),
      );
      const waitingOnLock = async (): Promise<number> => {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'`,
          [role],
        );
        return rows[0]?.n ?? 0;
      };
      let waiting = 0;
      for (const until = performance.now() + 10_000; waiting < 6 && performance.now() < until;) {
        await new Promise((r) => setTimeout(r, 100));
        waiting = await waitingOnLock();
      }
      expect(waiting).toBe(6);
      // Held for longer than the pool's connect timeout would allow a refused connection to hide.
      await new Promise((r) => setTimeout(r, 500));
      expect(await backends(url)).toBeLessThanOrEqual(10);
      await holder.query('ROLLBACK');
      const answers = await burst;
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    } finally {
      await holder?.end();
      await t.close();
    }
  });

  it('reopens its warm connections after the server dropped them, before any request asks', async () => {
    const t = await startApp({ db: { url, drop: async () => undefined } });
    try {
      // Six with the pool fitted to the role's limit of 10.
      const warm = await backends(url);
      expect(warm).toBeGreaterThanOrEqual(MIN_POOL);
      // What a PostgreSQL restart or a failover does to a pool's idle connections.
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
      let open = await backends(url);
      expect(open).toBeLessThan(warm);
      for (const until = performance.now() + 10_000; open < warm && performance.now() < until;) {
        await new Promise((r) => setTimeout(r, 200));
        open = await backends(url);
      }
      expect(open).toBe(warm);
      const owner = await signUp(t, 'rewarmed');
      await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200);
    } finally {
      await t.close();
    }
  });
});

/**
 * A session stuck while holding a venue's row lock (a client that died mid-transaction, an operator's
 * open psql) must not hold up the worker's sweeps for as long as it lasts: its connections give up
 * after WORKER_LOCK_TIMEOUT_MS, the job retries, and the other venues' sweeps keep their slots.
 */
describeWithServerAndRedis('the worker on PostgreSQL and Redis')('the worker and a held venue lock', () => {
  it('gives up waiting for the lock after WORKER_LOCK_TIMEOUT_MS, and takes it once it is released; the api still waits', async () => {
    const t = await startApp();
    const worker = await startWorker(t, { WORKER_LOCK_TIMEOUT_MS: '300' });
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      const venue = await createVenue(t, await signUp(t, 'locks'));
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM venues WHERE id = $1 FOR UPDATE', [venue.id]);
      const workerDb = worker.get<DataSource>(getDataSourceToken());
      const started = performance.now();
      await expect(workerDb.transaction((m) => lockVenueRow(m, venue.id))).rejects.toThrow(/lock timeout/);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(5000);
      // The api's commands queue behind the lock as before: no timeout on its connections.
      const apiDb = t.app.get<DataSource>(getDataSourceToken());
      expect(await apiDb.query('SHOW lock_timeout')).toEqual([{ lock_timeout: '0' }]);
      await holder.query('ROLLBACK');
      await workerDb.transaction((m) => lockVenueRow(m, venue.id));
    } finally {
      await holder.end();
      await worker.close();
      await t.close();
    }
  });
});
