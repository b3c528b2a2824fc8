import { randomBytes, randomInt } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * An invitation handed over in person to an account that already has a password asks for that
 * password. A manager at one venue can send such a link to anyone's account (the owner of another
 * venue, say) and keep it: each claim is then a guess at that account's password, and a right guess
 * sets a new one and signs its holder out everywhere. Those guesses must cost what a sign-in's do.
 */

const WINDOW_LIMIT = 3;
const SLOWDOWN_MS = 2500;

const freshAddress = (): string =>
  `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;
const codeOf = (res: request.Response): string | undefined => (res.body as { error?: { code?: string } }).error?.code;

describe('guessing a password through an invitation claim', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      env: {
        AUTH_RATE_LIMIT: String(WINDOW_LIMIT),
        AUTH_RATE_WINDOW_SECONDS: '60',
        AUTH_ADDRESS_LIMIT: '50',
        AUTH_ACCOUNT_LIMIT: String(WINDOW_LIMIT),
        AUTH_ACCOUNT_SLOWDOWN_MS: String(SLOWDOWN_MS),
      },
    });
  });
  afterAll(() => t.close());

  /** A manager of venue A holding an in-person invitation for the victim's account. */
  async function managerHoldingLink(victim: Staff): Promise<string> {
    const owner = await signUp(t, 'owner-a');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(manager.auth)
      .send({ email: victim.email, role: 'host' })
      .expect(201);
    return (res.body as { invitation?: { token: string | null } }).invitation?.token ?? '';
  }

  const claim = (token: string, currentPassword: string, from: string): request.Test =>
    request(t.baseUrl)
      .post('/v1/auth/invitations/claim')
      .set('X-Forwarded-For', from)
      .send({ token, password: `taken-${randomBytes(6).toString('hex')}`, currentPassword });

  const login = (email: string, password: string, from: string): request.Test =>
    request(t.baseUrl).post('/v1/auth/sessions').set('X-Forwarded-For', from).send({ email, password });

  it("count as failed sign-ins of that account from that address: past the limit the account's own sign-in from there waits", async () => {
    const victim = await signUp(t, 'owner-b');
    const link = await managerHoldingLink(victim);
    const from = freshAddress();
    for (let i = 0; i < WINDOW_LIMIT; i++) expect((await claim(link, `guess-${i}`, from)).status).toBe(401);
    const res = await login(victim.email, victim.password, from);
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Elsewhere the victim still signs in, and nothing was taken.
    await login(victim.email, victim.password, freshAddress()).expect(201);
  });

  it('from many addresses, guesses past the account limit are slowed as sign-ins are, and are audited', async () => {
    const victim = await signUp(t, 'owner-b');
    const link = await managerHoldingLink(victim);
    for (let i = 0; i < WINDOW_LIMIT; i++) expect((await claim(link, `guess-${i}`, freshAddress())).status).toBe(401);
    const started = Date.now();
    expect((await claim(link, 'one-more-guess', freshAddress())).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOWDOWN_MS);
    const rows: Array<{ n: string }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query(`SELECT count(*) AS n FROM audit_events WHERE action = 'invitation-claim-failed' AND subject_user_id = $1`, [
        victim.userId,
      ]);
    expect(Number(rows[0]?.n)).toBe(WINDOW_LIMIT + 1);
  });
});
