import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { StaffAccountService } from '@hostboard/auth';
import { startApp, ManualClock, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * The claim page names what the link joins before anyone types a password: `POST
 * /v1/auth/invitations/preview {token}` reads a link that would work now (the venue, the role, the
 * name its inviter gave, when it expires, and whether the claim will ask for a current password),
 * and answers every dead link (unknown, claimed, replaced, cancelled, expired, its sender no longer
 * able to grant its role) with the claim's own TOKEN_INVALID, byte for byte. Reading spends nothing.
 */
describe('POST /v1/auth/invitations/preview', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date('2026-03-17T15:41:00Z'));
  let owner: Staff;
  let venue: { id: string };
  const venueName = `Harbour Room ${randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'owner-preview');
    venue = await createVenue(t, owner, { name: venueName });
  });
  afterAll(() => t.close());

  const email = (label: string): string => `${label}-${randomBytes(4).toString('hex')}@example.test`;
  const api = () => request(t.baseUrl);
  // Each call from an address of its own: the link's limits are per address and not what this file tests.
  let address = 0;
  const from = (): { 'X-Forwarded-For': string } => ({ 'X-Forwarded-For': `198.51.100.${(++address % 250) + 1}` });

  async function invite(by: Staff, to: string, role: string, name?: string): Promise<{ id: string; token: string }> {
    const res = await api()
      .post(`/v1/venues/${venue.id}/members`)
      .set(by.auth)
      .send({ email: to, role, ...(name ? { name } : {}) })
      .expect(201);
    const inv = (res.body as { invitation?: { id: string; token: string | null } }).invitation;
    if (!inv?.token) throw new Error(`expected an in-person link, got ${JSON.stringify(res.body)}`);
    return { id: inv.id, token: inv.token };
  }
  const preview = (token: string) => api().post('/v1/auth/invitations/preview').set(from()).send({ token });
  const claim = (token: string, body: Record<string, string> = {}) =>
    api()
      .post('/v1/auth/invitations/claim')
      .set(from())
      .send({ token, password: `chosen-${randomBytes(6).toString('hex')}`, ...body });

  it('a working link names the venue, the role, the given name and its expiry; the claim still works after', async () => {
    const to = email('river');
    const { token } = await invite(owner, to, 'host', 'Rowan Vale');
    const res = await preview(token).expect(200);
    expect(res.body).toEqual({
      venueName,
      role: 'host',
      name: 'Rowan Vale',
      expiresAt: new Date(clock.now().getTime() + 7 * 86_400_000).toISOString(),
      needsCurrentPassword: false,
    });
    // Read twice: still the same answer, nothing spent.
    expect((await preview(token).expect(200)).body).toEqual(res.body);
    await claim(token).expect(201);
  });

  it('asks for the current password exactly when the claim would', async () => {
    const to = email('holder');
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await t.app.get(StaffAccountService).ensureAccount({ email: to, password, name: 'Own Name' }, 'owner-created');
    const { token } = await invite(owner, to, 'manager', 'Given Name');
    const res = await preview(token).expect(200);
    // The name is the one the inviter gave, never the account's own.
    expect(res.body).toMatchObject({ role: 'manager', name: 'Given Name', needsCurrentPassword: true });
    expect(Object.keys(res.body as object).sort()).toEqual(['expiresAt', 'name', 'needsCurrentPassword', 'role', 'venueName']);
    // The claim agrees: without the current password it is refused; with it, it works.
    expect((await claim(token)).status).toBe(401);
    await claim(token, { currentPassword: password }).expect(201);
  });

  it('every dead link answers the claim’s own TOKEN_INVALID, the same body for each', async () => {
    const answers: Array<{ kind: string; status: number; body: unknown }> = [];
    const record = async (kind: string, token: string): Promise<void> => {
      const res = await preview(token);
      answers.push({ kind, status: res.status, body: res.body });
    };
    const claimAnswer = await claim(randomBytes(32).toString('base64url'));

    await record('unknown', randomBytes(32).toString('base64url'));

    const claimed = await invite(owner, email('claimed'), 'host');
    await claim(claimed.token).expect(201);
    await record('claimed', claimed.token);

    const replacedTo = email('replaced');
    const replaced = await invite(owner, replacedTo, 'host');
    await invite(owner, replacedTo, 'host');
    await record('replaced', replaced.token);

    const cancelled = await invite(owner, email('cancelled'), 'host');
    await api().delete(`/v1/venues/${venue.id}/invitations/${cancelled.id}`).set(owner.auth).expect(200);
    await record('cancelled', cancelled.token);

    // Sent by a manager who has since been made a host: the link grants nothing while that lasts.
    const manager = await addMember(t, venue.id, owner, 'manager');
    const ungrantable = await invite(manager, email('ungrantable'), 'host');
    await api().patch(`/v1/venues/${venue.id}/members/${manager.userId}`).set(owner.auth).send({ role: 'host' }).expect(200);
    await record('no longer grantable', ungrantable.token);

    const expiring = await invite(owner, email('expired'), 'host');
    clock.advance(7 * 86_400_000);
    await record('expired', expiring.token);
    clock.advance(-7 * 86_400_000);

    expect(claimAnswer.status).toBe(401);
    const expected = { status: claimAnswer.status, body: claimAnswer.body as unknown };
    expect((claimAnswer.body as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
    expect(answers).toEqual(answers.map((a) => ({ kind: a.kind, ...expected })));

    // The dead links stay dead for the claim too (the read revived none of them).
    for (const token of [claimed.token, replaced.token, cancelled.token, ungrantable.token])
      expect((await claim(token)).status).toBe(401);
  });

  it('a link its sender can no longer grant is dead for the claim before any password question, as for the preview', async () => {
    // An account with a password, invited in person by a manager since made a host: the claim used to
    // ask for (and try) the current password first, which told this dead link from an unknown one.
    const to = email('demoted-sender');
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await t.app.get(StaffAccountService).ensureAccount({ email: to, password, name: 'Held Name' }, 'owner-created');
    const sender = await addMember(t, venue.id, owner, 'manager');
    const link = await invite(sender, to, 'host', 'Corin Vale');
    expect((await preview(link.token).expect(200)).body).toMatchObject({ needsCurrentPassword: true });
    await api().patch(`/v1/venues/${venue.id}/members/${sender.userId}`).set(owner.auth).send({ role: 'host' }).expect(200);
    const unknown = await claim(randomBytes(32).toString('base64url'));
    expect((unknown.body as { error: { code: string } }).error.code).toBe('TOKEN_INVALID');
    const dead = { status: unknown.status, body: unknown.body as unknown };
    const answers = [
      await preview(link.token),
      await claim(link.token),
      await claim(link.token, { currentPassword: `wrong-${randomBytes(4).toString('hex')}` }),
      await claim(link.token, { currentPassword: password }),
    ].map((res) => ({ status: res.status, body: res.body as unknown }));
    expect(answers).toEqual([dead, dead, dead, dead]);
  });

  it('counts failures per address with the claim: the 11th guess is RATE_LIMITED, a working link read meanwhile gives its point back', async () => {
    const guesser = { 'X-Forwarded-For': '203.0.113.77' };
    const previewFrom = (token: string) => api().post('/v1/auth/invitations/preview').set(guesser).send({ token });
    const live = await invite(owner, email('limited'), 'host', 'Sable Wren');
    // Nine wrong guesses, then the live link read three times (each gives its point back): still one left.
    for (let i = 0; i < 9; i++) expect((await previewFrom(randomBytes(32).toString('base64url'))).status).toBe(401);
    for (let i = 0; i < 3; i++) await previewFrom(live.token).expect(200);
    expect((await previewFrom(randomBytes(32).toString('base64url'))).status).toBe(401);
    // Used up: a guess, the live link itself and a claim from that address all read RATE_LIMITED.
    const limited = await previewFrom(randomBytes(32).toString('base64url'));
    expect(limited.status).toBe(429);
    expect((limited.body as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const liveLimited = await previewFrom(live.token);
    expect({ status: liveLimited.status, body: liveLimited.body as unknown }).toEqual({
      status: 429,
      body: limited.body as unknown,
    });
    const claimLimited = await api()
      .post('/v1/auth/invitations/claim')
      .set(guesser)
      .send({ token: live.token, password: `chosen-${randomBytes(6).toString('hex')}` });
    expect(claimLimited.status).toBe(429);
    // Another address reads and claims the link: nothing was spent.
    await preview(live.token).expect(200);
    await claim(live.token).expect(201);
  });

  it('reading a link does not extend it: read at once and 47 minutes before its end, it still dies a minute after it', async () => {
    const { token } = await invite(owner, email('extend'), 'host', 'Tamsin Reed');
    const first = (await preview(token).expect(200)).body as { expiresAt: string };
    clock.advance(7 * 86_400_000 - 47 * 60_000);
    const late = (await preview(token).expect(200)).body as { expiresAt: string };
    expect(late.expiresAt).toBe(first.expiresAt);
    clock.advance(48 * 60_000);
    try {
      expect((await preview(token)).status).toBe(401);
      expect((await claim(token)).status).toBe(401);
    } finally {
      clock.advance(-(7 * 86_400_000 + 60_000));
    }
  });

  it('refuses a malformed token before any read, as the claim does', async () => {
    const res = await api().post('/v1/auth/invitations/preview').set(from()).send({ token: 'not a token!' });
    expect(res.status).toBe(400);
    expect((res.body as { error: { code: string } }).error.code).toBe('VALIDATION');
  });
});
