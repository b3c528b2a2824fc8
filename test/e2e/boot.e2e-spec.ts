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

  it('serves OpenAPI at /docs and Prometheus metrics at /metrics', async () => {
    const t = await startApp();
    try {
      await request(t.baseUrl).get('/health').expect(200);
      const docs = await request(t.baseUrl).get('/docs-json').expect(200);
      expect(Object.keys((docs.body as { paths: object }).paths)).toEqual(
        expect.arrayContaining(['/v1/venues', '/v1/auth/sessions']),
      );
      await request(t.baseUrl).get('/docs').expect(200).expect('Content-Type', /html/);
      const metrics = await request(t.baseUrl).get('/metrics').expect(200);
      expect(metrics.text).toContain('hostboard_http_request_duration_seconds_count{method="GET",route="/health",status="200"}');
      expect(metrics.text).toContain('process_resident_memory_bytes');
    } finally {
      await t.close();
    }
  });
});
