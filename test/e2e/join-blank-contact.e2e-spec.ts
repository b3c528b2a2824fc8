import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { deskJoin, errorOf, publicJoin, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';

/**
 * "A party with neither is refused ('A queue party needs an email or a phone number.')": a form
 * whose email and phone boxes are both left blank sends them as empty strings. A blank phone was
 * read as no phone and answered in the spec's words, a blank email as a malformed address ("email
 * must be an email address, such as name@example.com"), so the party with neither was told to fix
 * an address it never gave.
 */
describe('a join with blank contact fields', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'blank-contact');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Asia/Tokyo',
      clock: '2026-05-05T10:00:00.000Z', // 19:00 in Tokyo
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '12:00', end: '23:00', turnMinutes: 21 }],
      tables: [{ label: 'T1', capacity: 4 }],
      published: true,
      patch: { country: 'JP' },
    });
  });
  afterAll(() => t.close());

  it('a blank email and a blank phone are no contact at all, in the spec’s words, at the desk and on the public join', async () => {
    for (const blank of [{ email: '', phone: '' }, { email: '' }, { email: '   ', phone: ' ' }]) {
      for (const res of [
        await deskJoin(t, owner, v.id, { name: 'Aiko', partySize: 2, ...blank }),
        await publicJoin(t, v.slug, { name: 'Aiko', partySize: 2, ...blank }),
      ]) {
        expect([res.status, errorOf(res).code, errorOf(res).message]).toEqual([
          400,
          'VALIDATION',
          'A queue party needs an email or a phone number.',
        ]);
      }
    }
  });

  it('a blank email beside a phone joins with the phone alone', async () => {
    const res = await deskJoin(t, owner, v.id, { name: 'Ken', partySize: 3, email: '', phone: '+819012345678' });
    expect(res.status).toBe(201);
    expect((res.body as JoinBody).quote).toBe('position 1 (0 ahead), quoted ~21 min (approx)');
  });
});
