import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, deskJoin, uniq, type JoinBody } from '../support/restaurant.js';

/**
 * Probe: the zone-to-country table left out the old names that browsers and Node still report as
 * canonical (ICU): a venue created with Asia/Calcutta, the name `Intl` gives for all of India, got no
 * country, so a host typing an Indian number the way Indians write it was refused.
 */
describe('probe: every zone name Intl reports gives its country', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'probe-zone');
  });
  afterAll(async () => t.close());

  it.each([
    ['Asia/Calcutta', 'IN', '098765 43210', '+919876543210'],
    ['Europe/Kiev', 'UA', '050 123 4567', '+380501234567'],
    ['Asia/Saigon', 'VN', '091 234 56 78', '+84912345678'],
    ['America/Buenos_Aires', 'AR', '011 15-2345-6789', '+5491123456789'],
  ])('%s gives %s, and a national number is read with it', async (timeZone, country, typed, e164) => {
    expect(Intl.supportedValuesOf('timeZone')).toContain(timeZone);
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ slug: `pz-${uniq()}`, name: 'Zone', timeZone, preset: 'restaurant', sandbox: true, clock: '2026-06-12T12:00:00Z' })
      .expect(201);
    const venue = res.body as { id: string; country: string | null };
    expect(venue.country).toBe(country);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 30 })
      .expect(201);
    const joined = (await deskJoin(t, owner, venue.id, { name: 'Local', partySize: 2, phone: typed }).expect(201)).body as JoinBody;
    await request(t.baseUrl).get(`/v1/venues/${venue.id}/queue/${joined.entry.id}`).set(owner.auth).expect(200);
    const texts = await request(t.baseUrl).get(`/v1/venues/${venue.id}/messages?channel=sms`).set(owner.auth).expect(200);
    expect((texts.body as Array<{ to: string }>).map((m) => m.to)).toEqual([e164]);
  });
});
