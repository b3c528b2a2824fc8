import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp } from '../support/staff.js';

/**
 * The claim form has no email field: a refusal that speaks of "the email or password" sends the holder
 * looking for an email they were never asked for. The words say what is missing or wrong.
 */
describe('claiming an in-person invitation to an account that has a password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const pw = (): string => `pw-${randomBytes(8).toString('hex')}`;
  const claim = (body: Record<string, string>): request.Test => request(t.baseUrl).post('/v1/auth/invitations/claim').send(body);
  const messageOf = (res: request.Response): string => (res.body as { error?: { message?: string } }).error?.message ?? '';

  it('says the current password is missing, or not right, and never speaks of an email', async () => {
    const owner = await signUp(t, 'owner-words');
    const venue = await createVenue(t, owner);
    const holder = await signUp(t, 'holder-words');
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email: holder.email, role: 'host' })
      .expect(201);
    const token = (res.body as { invitation?: { token: string | null } }).invitation?.token ?? '';
    expect(token).not.toBe('');

    const missing = await claim({ token, password: pw() });
    expect(missing.status).toBe(401);
    expect(messageOf(missing)).not.toMatch(/email/i);
    expect(messageOf(missing)).toMatch(/current password/i);

    const wrong = await claim({ token, password: pw(), currentPassword: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(messageOf(wrong)).not.toMatch(/email/i);
    expect(messageOf(wrong)).toMatch(/current password is not right/i);

    await claim({ token, password: pw(), currentPassword: holder.password }).expect(201);
  });
});
