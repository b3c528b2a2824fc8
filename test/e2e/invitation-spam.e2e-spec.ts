import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '@hostboard/core';
import { startApp, type TestApp } from '../support/test-app.js';
import { smtpCatcher, type SmtpCatcher } from '../support/smtp-catcher.js';
import { freshAddress } from '../support/restaurant.js';
import { addMember, chooseOwnPassword, createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * Any signed-in user can open a venue and, with SMTP set, have invitation emails naming a venue of
 * their choosing sent to any address. Those emails are bounded: per inviting account (and the
 * address it invites from) and per recipient in a window, then a plain 429 with Retry-After and no
 * email recorded. Sending the same invitation again counts too. Real HTTP; Redis when REDIS_URL is set.
 */

const PER_INVITER = 5;
const PER_RECIPIENT = 3;
const fresh = (): string => `target-${randomBytes(4).toString('hex')}@example.test`;
const codeOf = (res: request.Response): string | undefined => (res.body as { error?: { code?: string } }).error?.code;

describe('invitation emails are limited per inviter and per recipient', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await smtpCatcher();
    t = await startApp({
      env: {
        SMTP_URL: smtp.url,
        INVITE_RATE_PER_INVITER: String(PER_INVITER),
        INVITE_RATE_PER_RECIPIENT: String(PER_RECIPIENT),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = (venueId: string, by: Staff, email: string, from: string, role = 'host'): request.Test =>
    request(t.baseUrl)
      .post(`/v1/venues/${venueId}/members`)
      .set(by.auth)
      .set('X-Forwarded-For', from)
      .send({ email, role, name: 'Prize Winner' });
  const emailsTo = async (email: string): Promise<number> => {
    const rows: Array<{ n: number }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query(`SELECT count(*)::int AS n FROM outbox_messages WHERE to_address = $1 AND template = 'staff-invitation'`, [email]);
    return rows[0]?.n ?? 0;
  };
  const expectLimited = (res: request.Response): void => {
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/^Too many invitation emails/);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(new AppConfig().INVITE_RATE_WINDOW_SECONDS);
  };

  it('one inviter sends PER_INVITER emails, then 429; no email is recorded past it; a second venue of theirs buys nothing', async () => {
    const spammer = await signUp(t, 'spammer');
    const venue = await createVenue(t, spammer, { name: 'You won a prize' });
    const from = freshAddress();
    const targets = Array.from({ length: PER_INVITER + 1 }, fresh);
    for (const email of targets.slice(0, PER_INVITER)) await invite(venue.id, spammer, email, from).expect(201);
    const over = targets[PER_INVITER] ?? '';
    expectLimited(await invite(venue.id, spammer, over, from));
    expect(await emailsTo(over)).toBe(0);
    const second = await createVenue(t, spammer, { name: 'Claim your prize' });
    expectLimited(await invite(second.id, spammer, over, freshAddress()));
    expect(await emailsTo(over)).toBe(0);
    // Nobody else is held back by it.
    const owner = await signUp(t, 'honest-owner');
    const theirs = await createVenue(t, owner);
    await invite(theirs.id, owner, over, freshAddress()).expect(201);
    expect(await emailsTo(over)).toBe(1);
  });

  it('accounts minted by one inviter share the address they invite from', async () => {
    const spammer = await signUp(t, 'minter');
    const venue = await createVenue(t, spammer);
    const from = freshAddress();
    const sybils: Staff[] = [];
    for (let i = 0; i < 2; i++) {
      const minted = await chooseOwnPassword(t, await addMember(t, venue.id, spammer, 'host'));
      sybils.push(minted);
    }
    let sent = 0;
    for (const s of sybils) {
      const theirs = await createVenue(t, s);
      for (let i = 0; i < 3 && sent < PER_INVITER; i++, sent++) await invite(theirs.id, s, fresh(), from).expect(201);
    }
    const last = sybils[1] as Staff;
    const lastVenue = await createVenue(t, last);
    expectLimited(await invite(lastVenue.id, last, fresh(), from));
    await invite(lastVenue.id, last, fresh(), freshAddress()).expect(201);
  });

  it('one recipient gets PER_RECIPIENT invitation emails from everyone together; sending the same one again counts', async () => {
    const victim = fresh();
    const owner = await signUp(t, 'resender');
    const venue = await createVenue(t, owner);
    for (let i = 0; i < PER_RECIPIENT; i++) await invite(venue.id, owner, victim, freshAddress()).expect(201);
    expectLimited(await invite(venue.id, owner, victim, freshAddress()));
    const other = await signUp(t, 'other-inviter');
    const otherVenue = await createVenue(t, other);
    expectLimited(await invite(otherVenue.id, other, victim, freshAddress()));
    expect(await emailsTo(victim)).toBe(PER_RECIPIENT);
    // The refused sends did not use up the inviters' own allowance.
    for (let i = 0; i < PER_INVITER - PER_RECIPIENT; i++) await invite(venue.id, owner, fresh(), freshAddress()).expect(201);
    for (let i = 0; i < PER_INVITER; i++) await invite(otherVenue.id, other, fresh(), freshAddress()).expect(201);
  });

  it('a refusal past the limit is not kept as the answer to its Idempotency-Key: the retry after the wait is sent', async () => {
    const victim = fresh();
    const owner = await signUp(t, 'retrier');
    const venue = await createVenue(t, owner);
    for (let i = 0; i < PER_RECIPIENT; i++) await invite(venue.id, owner, victim, freshAddress()).expect(201);
    const key = `retry-${randomBytes(4).toString('hex')}`;
    expectLimited(await invite(venue.id, owner, victim, freshAddress()).set('Idempotency-Key', key));
    // What the retry with the same key would replay once the window has passed (no wait here: the
    // limiter keeps real time): nothing, so it is handled afresh then.
    const stored: Array<{ n: number }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]);
    expect(stored).toEqual([{ n: 0 }]);
  });

  it('an email address differing only in case is the same recipient', async () => {
    const victim = fresh();
    const owner = await signUp(t, 'caser');
    const venue = await createVenue(t, owner);
    const spellings = [victim, victim.toUpperCase(), victim.replace('example', 'Example')];
    for (const email of spellings) await invite(venue.id, owner, email, freshAddress()).expect(201);
    expectLimited(
      await invite(venue.id, owner, victim.replace('target', 'Target').replace('example', 'EXAMPLE'), freshAddress()),
    );
  });
});

describe('invitations handed over in person send no email and are not limited', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { INVITE_RATE_PER_INVITER: '2', INVITE_RATE_PER_RECIPIENT: '1' } });
  });
  afterAll(() => t.close());

  it('past both limits the link is still shown to hand over', async () => {
    const owner = await signUp(t, 'in-person');
    const venue = await createVenue(t, owner);
    const email = fresh();
    for (let i = 0; i < 4; i++) {
      await request(t.baseUrl)
        .post(`/v1/venues/${venue.id}/members`)
        .set(owner.auth)
        .send({ email: i % 2 ? email : fresh(), role: 'host' })
        .expect(201);
    }
  });
});
