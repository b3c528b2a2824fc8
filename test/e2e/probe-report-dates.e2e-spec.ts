import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { sandboxVenue, type ErrorBody, type Sandbox } from '../support/restaurant.js';

/**
 * Probe: dates the pattern YYYY-MM-DD lets through but no calendar has (30 February, year 0000)
 * reached the database and answered 500. They are a manager's typo: a 400 naming the field.
 */
describe('probe: the quote report refuses dates no calendar has', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'probe-dates');
    v = await sandboxVenue(t, owner, { clock: '2026-03-02T18:00:00Z' });
  });
  afterAll(async () => t.close());

  it.each([
    ['reports/quotes', 'from=2026-02-30&to=2026-03-01', 'from'],
    ['reports/quotes.csv', 'from=2026-02-27&to=2026-02-31', 'to'],
    ['reports/quotes', 'from=0000-01-01&to=0000-01-02', 'from'],
    ['reports/quotes', 'from=2026-13-01&to=2026-13-02', 'from'],
  ])('%s?%s answers 400 VALIDATION on %s', async (path, query, field) => {
    const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/${path}?${query}`).set(owner.auth);
    expect(res.status).toBe(400);
    const body = res.body as ErrorBody;
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.details['field'] ?? (body.error.details['fields'] as Array<{ field: string }>)[0]?.field).toBe(field);
  });

  it('a whole leap year is still one report; one day more is refused plainly', async () => {
    await request(t.baseUrl).get(`/v1/venues/${v.id}/reports/quotes?from=2024-01-01&to=2024-12-31`).set(owner.auth).expect(200);
    const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/reports/quotes?from=2024-01-01&to=2025-01-01`).set(owner.auth);
    expect(res.status).toBe(400);
  });
});
