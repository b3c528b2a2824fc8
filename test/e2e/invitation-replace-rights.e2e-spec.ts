import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp } from '../support/staff.js';

/**
 * A manager cannot cancel an invitation to the manager role (`DELETE …/invitations/:id` answers
 * 403). Inviting the same email again as a host ended that invitation all the same ("replaced"): the
 * owner's link to a new manager stopped working, and the manager's own host link took its place.
 * Replacing an invitation needs the right to cancel it.
 */
describe('replacing an open invitation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const email = (): string => `invitee-${randomBytes(4).toString('hex')}@example.test`;
  const pw = (): string => `pw-${randomBytes(8).toString('hex')}`;

  it("a manager cannot replace the owner's invitation to the manager role; the owner's link still works", async () => {
    const owner = await signUp(t, 'owner');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const invitee = email();
    const sent = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email: invitee, role: 'manager' })
      .expect(201);
    const link = (sent.body as { invitation: { token: string } }).invitation.token;

    const replaced = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(manager.auth)
      .send({ email: invitee, role: 'host' });
    expect({ status: replaced.status, body: replaced.body as unknown }).toEqual({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'A manager cannot replace an invitation to the manager role.', details: {} } },
    });

    const open = await request(t.baseUrl).get(`/v1/venues/${venue.id}/invitations`).set(owner.auth).expect(200);
    expect((open.body as Array<{ email: string; role: string }>).map((i) => [i.email, i.role])).toEqual([[invitee, 'manager']]);
    const claimed = await request(t.baseUrl).post('/v1/auth/invitations/claim').send({ token: link, password: pw() }).expect(201);
    const members = await request(t.baseUrl).get(`/v1/venues/${venue.id}/members`).set(owner.auth).expect(200);
    expect(
      (members.body as Array<{ userId: string; role: string }>).find(
        (m) => m.userId === (claimed.body as { user: { id: string } }).user.id,
      )?.role,
    ).toBe('manager');
  });

  it('a manager still replaces an invitation to the host role, and the owner any', async () => {
    const owner = await signUp(t, 'owner');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const invitee = email();
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email: invitee, role: 'host' })
      .expect(201);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(manager.auth)
      .send({ email: invitee, role: 'host' })
      .expect(201);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email: invitee, role: 'manager' })
      .expect(201);
    const open = await request(t.baseUrl).get(`/v1/venues/${venue.id}/invitations`).set(owner.auth).expect(200);
    expect((open.body as Array<{ email: string; role: string }>).map((i) => [i.email, i.role])).toEqual([[invitee, 'manager']]);
  });
});
