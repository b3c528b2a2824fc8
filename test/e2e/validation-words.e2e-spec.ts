import request from 'supertest';
import { deskJoin, errorOf, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A refused request's words are read by people using other clients of the API, not only by our
 * pages: the message (and each of `details.fields`' messages) is a sentence with the field's plain
 * name, "Party size must not be greater than 100000", not class-validator's "partySize must not be
 * …". The raw names stay in `details.field` and `details.fields[].field`, which clients key on.
 */
describe('validation words for API clients', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'validation-words-owner');
    v = await sandboxVenue(t, owner, { clock: '2026-05-19T00:25:00.000Z', tables: [{ label: 'W4', capacity: 6 }] });
  });
  afterAll(() => t.close());

  const refused = async (body: Record<string, unknown>) => {
    const res = await deskJoin(t, owner, v.id, body).expect(400);
    return errorOf(res) as {
      code: string;
      message: string;
      details: { field?: string; fields?: Array<{ field: string; message: string }> };
    };
  };

  it('an email that is not an address: "Email must be …", the field still `email`', async () => {
    const e = await refused({ name: 'Vera Words', partySize: 3, email: 'vera-at-nowhere' });
    expect(e.code).toBe('VALIDATION');
    expect(e.message).toBe('Email must be an email address, such as name@example.com');
    expect(e.details.fields).toEqual([{ field: 'email', message: 'Email must be an email address, such as name@example.com' }]);
  });

  it("class-validator's own words name the field plainly: a party size out of range, a wrong type", async () => {
    const over = await refused({ name: 'Vera Words', partySize: 100001, phone: '+13125550177' });
    expect(over.message).toBe('Party size must not be greater than 100000');
    expect(over.details.fields).toEqual([{ field: 'partySize', message: 'Party size must not be greater than 100000' }]);
    const typed = await refused({ name: 'Vera Words', partySize: '3', phone: '+13125550177' });
    expect(typed.message).toBe('Party size must be an integer number');
    expect(typed.details.fields?.[0]?.field).toBe('partySize');
  });

  it('an unknown field, a null and a number past any column read as sentences too', async () => {
    const unknown = await refused({ name: 'Vera Words', partySize: 3, phone: '+13125550177', seats: 3 });
    expect(unknown.message).toBe('The field "seats" is not one this request takes');
    expect(unknown.details.fields?.[0]?.field).toBe('seats');
    const nulled = await refused({ name: 'Vera Words', partySize: 3, email: 'vera@example.test', phone: null });
    expect(nulled.message).toBe('Phone must not be null');
    expect(nulled.details.field).toBe('phone');
    const huge = await refused({ name: 'Vera Words', partySize: 1e300, phone: '+13125550177' });
    expect(huge.message).toBe('Party size is out of range');
    expect(huge.details.field).toBe('partySize');
  });

  it("a booking's own refusals name what is missing or out of place in words, the fields in details", async () => {
    const book = (venueId: string, body: Record<string, unknown>) =>
      request(t.baseUrl).post(`/v1/venues/${venueId}/reservations`).set(owner.auth).send(body).expect(400);
    const noStart = errorOf(await book(v.id, { name: 'Ines Tablebook', partySize: 5, tableIds: [v.tableIds.W4] }));
    expect(noStart.message).toBe('A table booking needs a start time and its tables.');
    expect((noStart.details as { fields?: unknown }).fields).toEqual([
      { field: 'start', message: 'A table booking needs a start time.' },
    ]);
    const pool = await sandboxVenue(t, owner, { clock: '2026-05-19T00:25:00.000Z', preset: 'workshop', poolCapacity: 17 });
    const onPool = errorOf(
      await book(pool.id, { name: 'Ines Poolbook', partySize: 2, start: '2026-05-19T01:00:00.000Z', tableIds: [v.tableIds.W4] }),
    );
    expect(onPool.message).toBe('This venue has a seat pool: a booking here takes no start time and no tables.');
    expect((onPool.details as { fields?: Array<{ field: string }> }).fields?.map((f) => f.field)).toEqual(['start', 'tableIds']);
  });
  it('a length reads as a person says it: a new password too short, a current password left empty', async () => {
    const change = async (body: Record<string, unknown>) =>
      errorOf(await request(t.baseUrl).post('/v1/auth/password').set(owner.auth).send(body).expect(400)) as {
        message: string;
        details: { fields?: Array<{ field: string; message: string }> };
      };
    const short = await change({ currentPassword: owner.password, newPassword: 'short' });
    expect(short.message).toBe('New password must be at least 8 characters long');
    expect(short.details.fields).toEqual([{ field: 'newPassword', message: 'New password must be at least 8 characters long' }]);
    const empty = await change({ currentPassword: '', newPassword: 'a-long-enough-one' });
    expect(empty.message).toBe('Current password must not be empty');
  });
});
