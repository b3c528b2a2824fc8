import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { schemaDrift } from '@hostboard/persistence';
import { MIGRATIONS } from '../../libs/persistence/src/migrations/index.js';
import { startApp } from '../support/test-app.js';
import { freshDatabase, hasRedis, hasServer } from '../support/test-database.js';
import { createVenue, signUp } from '../support/staff.js';

const dataSourceOf = (t: Awaited<ReturnType<typeof startApp>>): DataSource => t.app.get<DataSource>(getDataSourceToken());

async function appliedMigrations(ds: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> = await ds.query('SELECT name FROM schema_migrations ORDER BY id');
  return rows.map((r) => r.name);
}

describe(`boot on ${hasServer() ? 'PostgreSQL' : 'embedded PGlite'} + ${hasRedis() ? 'Redis' : 'in-process jobs'}`, () => {
  it('applies the whole migration set to an empty database, answers health and ready, and a second boot finds the schema current', async () => {
    const db = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-boot-'));
    const env = { HOSTBOARD_DATA_DIR: dataDir };
    try {
      const first = await startApp({ db, env });
      expect(await appliedMigrations(dataSourceOf(first))).toEqual(MIGRATIONS.map((M) => new M().name));
      expect((await schemaDrift(dataSourceOf(first))).up).toEqual([]);
      await request(first.baseUrl).get('/health').expect(200, { status: 'ok' });
      const ready = await request(first.baseUrl).get('/ready').expect(200);
      expect(ready.body).toEqual({
        status: 'ready',
        checks: hasRedis() ? { database: 'ok', redis: 'ok' } : { database: 'ok' },
      });
      const owner = await signUp(first, 'owner');
      const venue = await createVenue(first, owner);
      await first.app.close();

      // Second boot on the same database (or the same data folder): nothing to apply, data still there.
      const second = await startApp({ db, env });
      expect(await appliedMigrations(dataSourceOf(second))).toHaveLength(MIGRATIONS.length);
      const again = await request(second.baseUrl)
        .post('/v1/auth/sessions')
        .send({ email: owner.email, password: owner.password })
        .expect(201);
      await request(second.baseUrl)
        .get(`/v1/venues/${venue.id}`)
        .set({ Authorization: `Bearer ${(again.body as { token: string }).token}` })
        .expect(200);
      await second.app.close();
    } finally {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves OpenAPI at /docs, and Prometheus metrics at /metrics only to a request carrying METRICS_TOKEN', async () => {
    const token = 'metrics-token-for-the-boot-test';
    const t = await startApp({ env: { METRICS_TOKEN: token } });
    try {
      await request(t.baseUrl).get('/health').expect(200);
      const docs = await request(t.baseUrl).get('/docs-json').expect(200);
      expect(Object.keys((docs.body as { paths: object }).paths)).toEqual(
        expect.arrayContaining(['/v1/venues', '/v1/auth/sessions']),
      );
      await request(t.baseUrl).get('/docs').expect(200).expect('Content-Type', /html/);
      // Without the token (or with a wrong one) /metrics reads as a route that does not exist.
      for (const headers of [{}, { Authorization: 'Bearer not-the-metrics-token' }, { 'X-Metrics-Token': `${token}x` }]) {
        const refused = await request(t.baseUrl).get('/metrics').set(headers).expect(404);
        expect((refused.body as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      }
      await request(t.baseUrl).get('/metrics').set({ 'X-Metrics-Token': token }).expect(200);
      const metrics = await request(t.baseUrl)
        .get('/metrics')
        .set({ Authorization: `Bearer ${token}` })
        .expect(200);
      expect(metrics.text).toContain('hostboard_http_request_duration_seconds_count{method="GET",route="/health",status="200"}');
      expect(metrics.text).toContain('process_resident_memory_bytes');
    } finally {
      await t.close();
    }
  });

  it('does not serve /metrics at all when no METRICS_TOKEN is configured', async () => {
    const t = await startApp();
    try {
      await request(t.baseUrl).get('/metrics').expect(404);
      await request(t.baseUrl).get('/metrics').set({ Authorization: 'Bearer anything-at-all-really' }).expect(404);
    } finally {
      await t.close();
    }
  });
});
