import { randomInt } from 'node:crypto';
import request from 'supertest';
import { sandboxVenue, uniq } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/staff.js';

/**
 * The per-address limits count an IPv6 client by its /64, the block one subscriber is given (a home
 * line, a phone, a cloud server: each has at least a /64, 2^64 addresses it may use in turn). Counted
 * per full address, a script that changed its address's last 64 bits at each request met no limit:
 * the public join's per-address cap, the failed sign-ins per address, the token exchanges. An
 * IPv4 address seen through an IPv6 socket (::ffff:192.0.2.1) is that IPv4 address.
 */

const CLOCK = '2026-10-09T23:00:00.000Z';
const codeOf = (res: request.Response): string | undefined => (res.body as { error?: { code?: string } }).error?.code;

/** A /64 of the documentation range, and an address in it. */
const freshPrefix = (): string => `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
const inPrefix = (prefix: string): string => `${prefix}:${[0, 0, 0, 0].map(() => randomInt(0, 0xffff).toString(16)).join(':')}`;

describe('per-address limits and IPv6 clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { JOIN_RATE_PER_ADDRESS: '3', AUTH_ADDRESS_LIMIT: '4', AUTH_RATE_LIMIT: '10' } });
  });
  afterAll(() => t.close());

  it('public joins from one /64 share its limit, however the last 64 bits change; another /64 is not affected', async () => {
    const owner = await signUp(t, 'owner');
    const v = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    const prefix = freshPrefix();
    const join = (from: string): request.Test =>
      request(t.baseUrl)
        .post(`/v1/public/venues/${v.slug}/queue`)
        .set('X-Forwarded-For', from)
        .send({ name: `Guest ${uniq()}`, partySize: 2, email: `g-${uniq()}@example.test` });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await join(inPrefix(prefix))).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    await join(inPrefix(freshPrefix())).expect(201);
  });

  it('failed sign-ins from one /64 share its limit', async () => {
    const prefix = freshPrefix();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await request(t.baseUrl)
        .post('/v1/auth/sessions')
        .set('X-Forwarded-For', inPrefix(prefix))
        .send({ email: `nobody-${uniq()}@example.test`, password: 'not-the-password' });
      statuses.push(res.status);
      if (res.status === 429) expect(codeOf(res)).toBe('RATE_LIMITED');
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('an IPv4 client reached through an IPv6 socket counts as that IPv4 address', async () => {
    const owner = await signUp(t, 'owner');
    const v = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    const v4 = `198.51.100.${randomInt(1, 254)}`;
    const join = (from: string): request.Test =>
      request(t.baseUrl)
        .post(`/v1/public/venues/${v.slug}/queue`)
        .set('X-Forwarded-For', from)
        .send({ name: `Guest ${uniq()}`, partySize: 2, email: `g-${uniq()}@example.test` });
    const statuses: number[] = [];
    for (const from of [v4, `::ffff:${v4}`, v4, `::FFFF:${v4}`]) statuses.push((await join(from)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});
