import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { JobScheduler } from '@hostboard/jobs';
import { NOT_SENT } from '@hostboard/outbox';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { relayOn } from '../support/outbox-relay.js';
import { smtpCatcher, type SmtpCatcher } from '../support/smtp-catcher.js';
import { freshAddress } from '../support/restaurant.js';
import { addMember, createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Pending invitations: managers and owners see a venue's open links and cancel them (a link sent to
 * the wrong address, a new host who never started). Real HTTP on the test app's own database.
 */

const DAY = 86_400_000;
const pw = (): string => `pw-${randomBytes(8).toString('hex')}`;
const codeOf = (res: request.Response): string | undefined => (res.body as { error?: { code?: string } }).error?.code;
const said = (res: request.Response): { status: number; code: string | undefined } => ({ status: res.status, code: codeOf(res) });

interface Invited {
  id: string;
  email: string;
  token: string;
}

interface Pending {
  id: string;
  email: string;
  name: string;
  role: string;
  delivery: string;
  sentBy: { userId: string; email: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
  cancellable: boolean;
  linkWorks: boolean;
}

describe('pending invitations: listed and cancelled by managers and owners', () => {
  const clock = new ManualClock(new Date('2026-11-02T15:00:00.000Z'));
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ clock });
  });
  afterAll(() => t.close());

  /** `by` invites a new email with no password: an invitation whose link is shown (no SMTP here). */
  async function invite(
    venueId: string,
    by: Staff,
    role: string,
    email = `new-${randomBytes(4).toString('hex')}@example.test`,
  ): Promise<Invited> {
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/members`)
      .set(by.auth)
      .send({ email, role, name: `New ${role}` })
      .expect(201);
    const body = res.body as { outcome: string; invitation?: { id: string; token: string | null } };
    expect(body.outcome).toBe('invited');
    return { id: body.invitation?.id ?? '', email, token: body.invitation?.token ?? '' };
  }
  const list = async (venueId: string, as: Staff): Promise<Pending[]> =>
    (await request(t.baseUrl).get(`/v1/venues/${venueId}/invitations`).set(as.auth).expect(200)).body as Pending[];
  const cancel = (venueId: string, id: string, as: Staff): request.Test =>
    request(t.baseUrl).delete(`/v1/venues/${venueId}/invitations/${id}`).set(as.auth);
  // Each from an address of its own: the claim limit counts failures per address, and it has tests of its own.
  const claim = (token: string): request.Test =>
    request(t.baseUrl).post('/v1/auth/invitations/claim').set('X-Forwarded-For', freshAddress()).send({ token, password: pw() });

  it('lists only open links, newest first, with who sent them and never a secret', async () => {
    const owner = await signUp(t, 'list-owner');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const expired = await invite(venue.id, owner, 'host');
    clock.advance(7 * DAY);
    // Sessions outlive no week: sign in again on the moved clock.
    const [ownerNow, managerNow] = [
      await signIn(t, owner.email, owner.password),
      await signIn(t, manager.email, manager.password),
    ];
    const claimed = await invite(venue.id, ownerNow, 'host');
    await claim(claimed.token).expect(201);
    const replaced = await invite(venue.id, ownerNow, 'host');
    clock.advance(1000);
    const againAt = clock.now();
    const again = await invite(venue.id, managerNow, 'host', replaced.email);
    clock.advance(1000);
    const asManager = await invite(venue.id, ownerNow, 'manager');
    // Another venue's open link is not this venue's business.
    const elsewhere = await invite((await createVenue(t, ownerNow)).id, ownerNow, 'host');

    const listed = await list(venue.id, ownerNow);
    expect(listed.map((i) => i.id)).toEqual([asManager.id, again.id]);
    expect(listed.map((i) => i.id)).not.toEqual(expect.arrayContaining([expired.id, claimed.id, replaced.id, elsewhere.id]));
    const [first, second] = listed;
    expect(second).toEqual({
      id: again.id,
      email: replaced.email,
      name: 'New host',
      role: 'host',
      delivery: 'in-person',
      sentBy: { userId: manager.userId, email: manager.email, name: 'manager' },
      createdAt: againAt.toISOString(),
      expiresAt: new Date(againAt.getTime() + 7 * DAY).toISOString(),
      cancellable: true,
      linkWorks: true,
    });
    expect(first).toMatchObject({ role: 'manager', sentBy: { userId: owner.userId, email: owner.email } });
    // Neither the link's secret nor its hash is in the answer.
    const text = JSON.stringify(listed);
    expect(text).not.toContain(asManager.token);
    expect(Object.keys(first ?? {}).sort()).toEqual(
      ['cancellable', 'createdAt', 'delivery', 'email', 'expiresAt', 'id', 'linkWorks', 'name', 'role', 'sentBy'].sort(),
    );
    // The manager may cancel the host's link, not the manager's (only an owner grants that role).
    expect((await list(venue.id, managerNow)).map((i) => [i.role, i.cancellable])).toEqual([
      ['manager', false],
      ['host', true],
    ]);
    // At the expiry instant a link is over (a claim sees it so), and the list agrees.
    clock.set(new Date(Date.parse(second?.expiresAt ?? '')));
    const later = await signIn(t, owner.email, owner.password);
    expect((await list(venue.id, later)).map((i) => i.id)).toEqual([asManager.id]);
  });

  it('a cancelled link answers like any dead link; the list, the audit log and a second cancel say so', async () => {
    const owner = await signUp(t, 'cancel-owner');
    const venue = await createVenue(t, owner);
    const sent = await invite(venue.id, owner, 'host');
    const res = await cancel(venue.id, sent.id, owner).expect(200);
    expect(res.body).toMatchObject({
      id: sent.id,
      email: sent.email,
      role: 'host',
      cancelledAt: clock.now().toISOString(),
      message: `The invitation to ${sent.email} as host was cancelled; its link no longer works.`,
    });
    expect(await list(venue.id, owner)).toEqual([]);

    const dead = await claim(sent.token);
    const unknown = await claim(randomBytes(32).toString('base64url'));
    expect(said(dead)).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(dead.body).toEqual(unknown.body);

    const second = await cancel(venue.id, sent.id, owner);
    expect(said(second)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(second.body).toEqual({
      error: {
        code: 'CONFLICT',
        message: 'This invitation was already cancelled; its link no longer works.',
        details: { state: 'cancelled', endedAt: clock.now().toISOString() },
      },
    });

    const ds = t.app.get<DataSource>(getDataSourceToken());
    const audit: Array<{ action: string; actor: string; details: Record<string, unknown> }> = await ds.query(
      `SELECT action, actor, details FROM audit_events WHERE venue_id = $1 AND action LIKE 'invitation-%' ORDER BY id`,
      [venue.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['invitation-created', 'invitation-cancelled']);
    expect(audit[1]).toMatchObject({
      actor: `staff:${owner.userId}`,
      details: { invitationId: sent.id, role: 'host', delivery: 'in-person', invitedBy: owner.userId },
    });
    const row: Array<{ end_reason: string }> = await ds.query('SELECT end_reason FROM staff_invitations WHERE id = $1', [
      sent.id,
    ]);
    expect(row).toEqual([{ end_reason: 'cancelled' }]);
  });

  it('a link that ended another way is refused 409 with how it ended', async () => {
    const owner = await signUp(t, 'ended-owner');
    const venue = await createVenue(t, owner);
    const claimed = await invite(venue.id, owner, 'host');
    await claim(claimed.token).expect(201);
    const replaced = await invite(venue.id, owner, 'host');
    await invite(venue.id, owner, 'host', replaced.email);
    const expired = await invite(venue.id, owner, 'host');
    clock.advance(7 * DAY);
    const ownerNow = await signIn(t, owner.email, owner.password);
    const answers = await Promise.all([claimed, replaced, expired].map((i) => cancel(venue.id, i.id, ownerNow)));
    expect(answers.map(said)).toEqual(Array(3).fill({ status: 409, code: 'CONFLICT' }));
    expect(answers.map((a) => (a.body as { error: { details: { state: string } } }).error.details.state)).toEqual([
      'claimed',
      'replaced',
      'expired',
    ]);
    expect((answers[0]?.body as { error: { message: string } }).error.message).toBe(
      `This invitation was already accepted, so there is nothing to cancel. To take the access away, remove ${claimed.email} from the staff list.`,
    );
  });

  it('hosts may neither list nor cancel; a manager cannot cancel an owner invitation; another venue’s id is 404', async () => {
    const owner = await signUp(t, 'roles-owner');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const host = await addMember(t, venue.id, owner, 'host');
    const toOwner = await invite(venue.id, owner, 'owner');
    const toHost = await invite(venue.id, owner, 'host');

    expect(said(await request(t.baseUrl).get(`/v1/venues/${venue.id}/invitations`).set(host.auth))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(said(await cancel(venue.id, toHost.id, host))).toEqual({ status: 403, code: 'FORBIDDEN' });
    const refused = await cancel(venue.id, toOwner.id, manager);
    expect(refused.body).toEqual({
      error: { code: 'FORBIDDEN', message: 'A manager cannot cancel an invitation to the owner role.', details: {} },
    });
    // Still open: the owner's link works.
    expect((await list(venue.id, owner)).map((i) => i.id)).toContain(toOwner.id);

    // The owner of another venue, naming their own venue and this venue's invitation: not found,
    // word for word as an id that never existed.
    const stranger = await signUp(t, 'stranger');
    const theirs = await createVenue(t, stranger);
    const crossVenue = await cancel(theirs.id, toHost.id, stranger);
    const unknown = await cancel(theirs.id, randomUUID(), stranger);
    expect(said(crossVenue)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(crossVenue.body).toEqual(unknown.body);
    // And at this venue, as a non-member: the venue itself is not confirmed.
    expect(said(await cancel(venue.id, toHost.id, stranger))).toEqual({ status: 404, code: 'NOT_FOUND' });

    await cancel(venue.id, toHost.id, manager).expect(200);
    expect(said(await claim(toHost.token))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
  });

  it('a link whose sender may no longer grant its role is listed as not working, and can still be cancelled', async () => {
    const owner = await signUp(t, 'paused-owner');
    const venue = await createVenue(t, owner);
    const manager = await addMember(t, venue.id, owner, 'manager');
    const sent = await invite(venue.id, manager, 'host');
    await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}/members/${manager.userId}`)
      .set(owner.auth)
      .send({ role: 'host' })
      .expect(200);
    expect(await list(venue.id, owner)).toEqual([expect.objectContaining({ id: sent.id, linkWorks: false, cancellable: true })]);
    await cancel(venue.id, sent.id, owner).expect(200);
    // Made a manager again, their old link stays dead: it was cancelled, not only paused.
    await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}/members/${manager.userId}`)
      .set(owner.auth)
      .send({ role: 'manager' })
      .expect(200);
    expect(said(await claim(sent.token))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
  });

  it('a retried cancel with the same Idempotency-Key gets the first answer; without it, the clear refusal', async () => {
    const owner = await signUp(t, 'retry-owner');
    const venue = await createVenue(t, owner);
    const sent = await invite(venue.id, owner, 'host');
    const key = `cancel-${randomBytes(4).toString('hex')}`;
    const first = await cancel(venue.id, sent.id, owner).set('Idempotency-Key', key).expect(200);
    const retry = await cancel(venue.id, sent.id, owner).set('Idempotency-Key', key).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(said(await cancel(venue.id, sent.id, owner).set('Idempotency-Key', `${key}-2`))).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    // A key names one request: the same key on another invitation is refused, not replayed.
    const other = await invite(venue.id, owner, 'host');
    expect(said(await cancel(venue.id, other.id, owner).set('Idempotency-Key', key))).toEqual({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });
});

describe('an invitation email the relay has not sent yet dies with its link', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await smtpCatcher();
    // Invitations go by email; the in-process jobs are stopped so that only the test relays.
    t = await startApp({ env: { SMTP_URL: smtp.url, REDIS_URL: '' } });
    await t.app.get(JobScheduler).stop();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = async (venueId: string, by: Staff, email: string, role: string): Promise<string> => {
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/members`)
      .set(by.auth)
      .send({ email, role, name: `New ${role}` })
      .expect(201);
    const body = res.body as { invitation: { id: string; delivery: string } };
    expect(body.invitation.delivery).toBe('email');
    return body.invitation.id;
  };
  const relayAll = async (): Promise<void> => {
    const relay = relayOn(t, { SMTP_URL: smtp.url });
    while ((await relay.relay()) > 0);
  };
  const outbox = (email: string): Promise<Array<{ status: string; not_sent_reason: string | null }>> =>
    t.app
      .get<DataSource>(getDataSourceToken())
      .query(`SELECT status, not_sent_reason FROM outbox_messages WHERE to_address = $1 ORDER BY id`, [email]);

  it('a cancelled invitation’s email is held back with the reason; nothing reaches the address', async () => {
    const owner = await signUp(t, 'mail-cancel-owner');
    const venue = await createVenue(t, owner);
    const email = `wrong-${randomBytes(4).toString('hex')}@example.test`;
    const id = await invite(venue.id, owner, email, 'host');
    await request(t.baseUrl).delete(`/v1/venues/${venue.id}/invitations/${id}`).set(owner.auth).expect(200);
    await relayAll();
    expect(smtp.mail.filter((m) => m.to === email)).toEqual([]);
    expect(await outbox(email)).toEqual([{ status: 'recorded', not_sent_reason: NOT_SENT.invitationEnded }]);
  });

  it('an invitation sent again replaces the first: one email, with the link that works', async () => {
    const owner = await signUp(t, 'mail-again-owner');
    const venue = await createVenue(t, owner);
    const email = `again-${randomBytes(4).toString('hex')}@example.test`;
    await invite(venue.id, owner, email, 'host');
    await invite(venue.id, owner, email, 'manager');
    await relayAll();
    const letters = smtp.mail.filter((m) => m.to === email);
    expect(letters).toHaveLength(1);
    expect(letters[0]?.data).toContain('as manager');
    const token = /#claim=([A-Za-z0-9_-]{43})/.exec((letters[0]?.data ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
    await request(t.baseUrl).post('/v1/auth/invitations/claim').send({ token, password: pw() }).expect(201);
    expect((await outbox(email)).map((m) => m.not_sent_reason)).toEqual([NOT_SENT.invitationEnded, null]);
  });
});
