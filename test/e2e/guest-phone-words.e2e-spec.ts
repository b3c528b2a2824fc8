import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, errorOf, freshAddress, uniq } from '../support/restaurant.js';

/**
 * The refusal a guest reads for a phone number that cannot be read, on the public join (and the
 * desk's): in words, with the venue's country by name. It read "phone must be a valid NZ phone
 * number, or in international (E.164) form such as +13125550123." at a venue in Auckland: a field
 * name, a country code, a standard's number and a US example.
 */
describe('the words for a phone number that cannot be read', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'phone-words');
  });
  afterAll(async () => t.close());

  async function venue(timeZone: string): Promise<{ id: string; slug: string }> {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({
        slug: `pw-${uniq()}`,
        name: 'Kai Whare',
        timeZone,
        preset: 'restaurant',
        sandbox: true,
        clock: '2026-12-05T06:00:00Z',
      })
      .expect(201);
    const v = res.body as { id: string; slug: string };
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 35 })
      .expect(201);
    await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ published: true }).expect(200);
    return v;
  }

  it.each(['abc', '12', '021 12'])('%j at a venue in New Zealand, publicly and at the desk', async (phone) => {
    const v = await venue('Pacific/Auckland');
    const words =
      'We cannot read that phone number. Give it as it is dialled in the venue’s country (New Zealand), or with + and the country code.';
    const pub = await request(t.baseUrl)
      .post(`/v1/public/venues/${v.slug}/queue`)
      .set('X-Forwarded-For', freshAddress())
      .send({ name: 'Mere', partySize: 2, phone })
      .expect(400);
    expect(errorOf(pub)).toEqual({ code: 'VALIDATION', message: words, details: { field: 'phone' } });
    const desk = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Mere', partySize: 2, phone })
      .expect(400);
    expect(errorOf(desk).message).toBe(words);
  });

  it('a venue with no country asks for the international form, in words', async () => {
    const v = await venue('UTC');
    const desk = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Mere', partySize: 2, phone: '021 123 4567' })
      .expect(400);
    expect(errorOf(desk).message).toBe(
      'Give the phone number in international form, with + and the country code: this venue has no country set, so a number without them cannot be read.',
    );
  });
});
