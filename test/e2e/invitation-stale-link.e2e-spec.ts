import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp } from '../support/staff.js';

/**
 * An in-person invitation sent while its email had no password yet (no account, or only another
 * venue's unclaimed invitation) asks for no current password. The holder may then claim another
 * venue's link and choose a password, and use the account; the first link is still open in its
 * inviter's hands for up to seven days. Claiming it must then ask for the password the account has
 * now: without that, the inviter set a password of their own, signed the holder out everywhere and
 * held every role the holder had, at every venue.
 */
describe('an in-person invitation sent before the account had a password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const pw = (): string => `pw-${randomBytes(8).toString('hex')}`;

  async function invite(venueId: string, auth: { Authorization: string }, email: string): Promise<string> {
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/members`)
      .set(auth)
      .send({ email, role: 'manager' })
      .expect(201);
    const token = (res.body as { invitation?: { token: string | null } }).invitation?.token;
    if (!token) throw new Error(`expected an in-person link, got ${JSON.stringify(res.body)}`);
    return token;
  }

  it('asks for the current password once the holder has chosen one elsewhere', async () => {
    const owner = await signUp(t, 'owner-a');
    const venueA = await createVenue(t, owner);
    const stranger = await signUp(t, 'owner-x');
    const venueX = await createVenue(t, stranger);
    const email = `newcomer-${randomBytes(4).toString('hex')}@example.test`;

    // The stranger invites the address first, and keeps the link.
    const kept = await invite(venueX.id, stranger.auth, email);
    // The holder's real employer invites them; they claim it with a password of their own.
    const real = await invite(venueA.id, owner.auth, email);
    const theirs = pw();
    await request(t.baseUrl).post('/v1/auth/invitations/claim').send({ token: real, password: theirs }).expect(201);

    // The stranger's link now needs the account's password, as any link to an existing account does.
    const taken = await request(t.baseUrl).post('/v1/auth/invitations/claim').send({ token: kept, password: pw() });
    expect({ status: taken.status, code: (taken.body as { error?: { code?: string } }).error?.code }).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    // The holder still signs in with their own password, and is still a manager of venue A.
    const session = await request(t.baseUrl).post('/v1/auth/sessions').send({ email, password: theirs }).expect(201);
    await request(t.baseUrl)
      .get(`/v1/venues/${venueA.id}/members`)
      .set({ Authorization: `Bearer ${(session.body as { token: string }).token}` })
      .expect(200);
    // With that password the link works as any in-person link to an existing account does.
    await request(t.baseUrl)
      .post('/v1/auth/invitations/claim')
      .send({ token: kept, password: theirs, currentPassword: theirs })
      .expect(201);
  });
});
