import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { StaffAccountService } from '@hostboard/auth';
import type { Role } from '@hostboard/core';
import type { TestApp } from './test-app.js';

export interface Staff {
  email: string;
  password: string;
  token: string;
  userId: string;
  auth: { Authorization: string };
}

let counter = 0;
const unique = (): string => `${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;

/** Creates an account through the app's own service (as the CLI does) and signs in over HTTP. */
export async function signUp(t: TestApp, label = 'staff'): Promise<Staff> {
  const email = `${label}-${unique()}@example.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await t.app.get(StaffAccountService).ensureAccount({ email, password, name: label }, 'owner-created');
  return signIn(t, email, password);
}

export async function signIn(t: TestApp, email: string, password: string): Promise<Staff> {
  const res = await request(t.baseUrl).post('/v1/auth/sessions').send({ email, password }).expect(201);
  const body = res.body as { token: string; user: { id: string } };
  return { email, password, token: body.token, userId: body.user.id, auth: { Authorization: `Bearer ${body.token}` } };
}

export async function createVenue(
  t: TestApp,
  owner: Staff,
  body: Record<string, unknown> = {},
): Promise<{ id: string; slug: string }> {
  const res = await request(t.baseUrl)
    .post('/v1/venues')
    .set(owner.auth)
    .send({ slug: `v-${unique()}`, name: 'Test venue', timeZone: 'America/Chicago', preset: 'restaurant', ...body })
    .expect(201);
  return res.body as { id: string; slug: string };
}

/** Adds a member through the HTTP API as `by`, and signs the new member in. */
export async function addMember(t: TestApp, venueId: string, by: Staff, role: Role): Promise<Staff> {
  const email = `${role}-${unique()}@example.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await request(t.baseUrl)
    .post(`/v1/venues/${venueId}/members`)
    .set(by.auth)
    .send({ email, password, role, name: role })
    .expect(201);
  return signIn(t, email, password);
}

/**
 * The holder of an account a manager created chooses their own password (it was someone else's
 * choice, and the server keeps it from going further until then). Answers the session it keeps.
 */
export async function chooseOwnPassword(t: TestApp, who: Staff): Promise<Staff> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await request(t.baseUrl)
    .post('/v1/auth/password')
    .set(who.auth)
    .send({ currentPassword: who.password, newPassword: password })
    .expect(200);
  return { ...who, password };
}

/**
 * Adds an existing account to a venue the way it now must happen: an invitation (granting nothing),
 * then its holder claims the one-time link (shown to the inviter when no SMTP is configured) with
 * their current password, keeping the same password. Answers the holder's new session: claiming
 * ends every earlier one.
 */
export async function inviteAndClaim(t: TestApp, venueId: string, by: Staff, who: Staff, role: Role): Promise<Staff> {
  const res = await request(t.baseUrl)
    .post(`/v1/venues/${venueId}/members`)
    .set(by.auth)
    .send({ email: who.email, role })
    .expect(201);
  const body = res.body as { outcome: string; invitation?: { token: string | null } };
  if (body.outcome !== 'invited' || !body.invitation?.token)
    throw new Error(`expected an in-person invitation, got ${JSON.stringify(body)}`);
  const claimed = await request(t.baseUrl)
    .post('/v1/auth/invitations/claim')
    .send({ token: body.invitation.token, password: who.password, currentPassword: who.password })
    .expect(201);
  const token = (claimed.body as { token: string }).token;
  return { ...who, token, auth: { Authorization: `Bearer ${token}` } };
}
