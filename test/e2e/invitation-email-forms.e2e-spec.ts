import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { StaffAccountService } from '@hostboard/auth';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp } from '../support/staff.js';

/**
 * A staff email written with other forms of the same characters (full-width letters, an accent as a
 * separate mark) reads the same as the address it copies, yet was stored as another account: a
 * second person in the staff list that looks like the first, an invitation to it, and another
 * recipient for the invitation limits. Such spellings are refused when a member is added. Real HTTP.
 */
describe('staff emails in another Unicode form of the same characters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('are refused 400 when adding a member, whether or not the plain spelling has an account', async () => {
    const tag = randomBytes(3).toString('hex');
    const plain = `jos\u00e9-${tag}@example.test`;
    await t.app
      .get(StaffAccountService)
      .ensureAccount({ email: plain, password: `pw-${tag}-secret`, name: 'José' }, 'owner-created');
    const owner = await signUp(t, 'forms-owner');
    const venue = await createVenue(t, owner);
    const spellings = [
      `jose\u0301-${tag}@example.test`, // the accent as its own mark: reads as the account above
      `\uff4a\uff4f\uff53\u00e9-${tag}@example.test`, // full-width letters
      `\uff4e\uff45\uff57-${tag}@example.test`, // full-width, no account in any spelling
    ];
    const answers = [];
    for (const email of spellings) {
      const res = await request(t.baseUrl).post(`/v1/venues/${venue.id}/members`).set(owner.auth).send({ email, role: 'host' });
      answers.push({ status: res.status, body: res.body as unknown });
    }
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
    expect(answers[0]?.body).toEqual(answers[2]?.body);
    expect(JSON.stringify(answers[0]?.body)).toContain('ordinary characters');
    // Nothing was invited.
    await request(t.baseUrl).get(`/v1/venues/${venue.id}/invitations`).set(owner.auth).expect(200, []);
    // The plain spelling, and other letters that are already in their usual form, are taken as before.
    for (const email of [plain, `\u5f20\u4f1f-${tag}@example.test`, `ANA-${tag}@Example.TEST`]) {
      await request(t.baseUrl).post(`/v1/venues/${venue.id}/members`).set(owner.auth).send({ email, role: 'host' }).expect(201);
    }
  });
});
