import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { uniq, type ErrorBody } from '../support/restaurant.js';

/**
 * CET, EET, MET and WET are IANA zones with summer time (Luxon: CET is UTC+2 in July), but PostgreSQL
 * reads the same names in timezone() as fixed abbreviations (CET is UTC+1 all year). A venue created
 * with one of them had its rules in two clocks: the statements that ask whether a business day has
 * ended (the sweep's question, the safety sweep's search) and the floor model's dayparts read local
 * time an hour behind the rules in Luxon all summer. Compared over every zone Intl lists, at a winter
 * and a summer instant, these four are the only names the two read differently. They are refused in
 * words; the zone of the venue's city reads the same everywhere.
 */
describe('a venue time zone that the database and the rules would read differently is refused', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'zone-two-readings');
  });
  afterAll(async () => t.close());

  const create = (timeZone: string): request.Test =>
    request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ slug: `zr-${uniq()}`, name: 'Zone', timeZone, preset: 'restaurant', sandbox: true, clock: '2026-07-15T12:00:00Z' });

  it.each(['CET', 'EET', 'MET', 'WET', 'cet'])(
    '%s answers 400 VALIDATION naming timeZone, with a city zone to use',
    async (zone) => {
      const res = await create(zone);
      expect(res.status).toBe(400);
      const body = res.body as ErrorBody;
      expect(body.error.code).toBe('VALIDATION');
      expect(JSON.stringify(body.error.details)).toContain('timeZone');
      expect(body.error.message).toContain(
        `Time zone ${zone} is read with summer time in some places and without it in others: use the zone of the venue's city, such as Europe/Paris`,
      );
    },
  );

  it.each(['Europe/Paris', 'Europe/Athens', 'Europe/Lisbon', 'EST', 'Etc/GMT-1', 'UTC'])('%s is taken', async (zone) => {
    expect((await create(zone)).status).toBe(201);
  });
});
