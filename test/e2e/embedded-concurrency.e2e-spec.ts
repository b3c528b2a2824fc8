import { getDataSourceToken } from '@nestjs/typeorm';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * The embedded default runs one transaction at a time; concurrent HTTP commands must still give the
 * answers PostgreSQL would. This file always runs on PGlite, whatever the environment says.
 */
describe('concurrent commands on the embedded default (PGlite)', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp({ db: { url: undefined, drop: async () => undefined }, env: { REDIS_URL: '' } });
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  it('is really the embedded database', async () => {
    expect(t.config.embedded).toBe(true);
    const [row] = (await t.app.get<DataSource>(getDataSourceToken()).query('SELECT version()')) as Array<{ version: string }>;
    expect(row?.version).toMatch(/PostgreSQL 1[78]/);
  });

  it('gives one venue per slug when 12 creations race, 10 rounds', async () => {
    for (let round = 0; round < 10; round++) {
      const slug = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          request(t.baseUrl)
            .post('/v1/venues')
            .set(owner.auth)
            .send({ slug, name: `Racer ${i}`, timeZone: 'America/Chicago', preset: 'restaurant' }),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(409);
        expect((a.body as { error: { code: string } }).error.code).toBe('CONFLICT');
      }
    }
    const mine = (await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200)).body as unknown[];
    expect(mine).toHaveLength(10);
  });

  it('loses no update when 30 venue commands race on one venue row', async () => {
    const created = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ slug: 'cap-race', name: 'Cap', timeZone: 'America/Chicago', preset: 'restaurant' })
      .expect(201);
    const id = (created.body as { id: string }).id;
    const caps = Array.from({ length: 30 }, (_, i) => (i % 8) + 1);
    const answers = await Promise.all(
      caps.map((cap) => request(t.baseUrl).patch(`/v1/venues/${id}`).set(owner.auth).send({ queuePartyCap: cap })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const final = (await request(t.baseUrl).get(`/v1/venues/${id}`).set(owner.auth).expect(200)).body as {
      queuePartyCap: number;
    };
    // Serialised: the stored value is the one some command wrote last, and every answer saw a whole state.
    expect(caps).toContain(final.queuePartyCap);
    for (const a of answers) expect(caps).toContain((a.body as { queuePartyCap: number }).queuePartyCap);
  });
});
