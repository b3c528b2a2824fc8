import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import type { MessageBody } from '../support/restaurant.js';

/**
 * After a busy night: 1,010 recorded emails. The newest is on the first page, the pages follow the
 * Link header to the oldest, and nothing is cut or repeated (it used to be the oldest 1,000, ascending).
 */
describe('messages after a busy night', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'volume');
  });
  afterAll(async () => {
    await t.close();
  });

  it('puts the newest of 1,010 emails first and pages through every one of them', async () => {
    const venue = await createVenue(t, owner);
    // Recorded as the join would, a minute apart, the last one the newest.
    await t.app.get<DataSource>(getDataSourceToken()).query(
      `INSERT INTO outbox_messages (id, venue_id, channel, to_address, template, subject, body, status, created_at)
       SELECT gen_random_uuid(), $1, 'email', 'guest' || g || '@example.test', 'queue-joined', 'You are in the queue', 'Body ' || g,
              'recorded', timestamptz '2026-12-01 17:00:00+00' + g * interval '1 minute'
       FROM generate_series(1, 1010) g`,
      [venue.id],
    );
    const first = await request(t.baseUrl).get(`/v1/venues/${venue.id}/messages`).set(owner.auth).expect(200);
    const page = first.body as MessageBody[];
    expect(page).toHaveLength(100);
    expect(page[0]).toMatchObject({ to: 'guest1010@example.test', body: 'Body 1010' });
    expect(first.headers['link']).toMatch(/rel="next"/);

    const seen = new Set<string>(page.map((m) => m.id));
    let next = /^<([^>]+)>; rel="next"$/.exec(String(first.headers['link']))?.[1] ?? null;
    let last: MessageBody | undefined;
    while (next) {
      const res = await request(t.baseUrl).get(next).set(owner.auth).expect(200);
      for (const m of res.body as MessageBody[]) {
        expect(seen.has(m.id)).toBe(false);
        seen.add(m.id);
        last = m;
      }
      const link = res.headers['link'] as string | undefined;
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
    }
    expect(seen.size).toBe(1010);
    expect(last).toMatchObject({ to: 'guest1@example.test' });
  });
});
