import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from './test-app.js';
import type { Staff } from './staff.js';

/** Helpers for restaurant-queue tests: sandbox venues with a simulated clock, joins, token exchanges. */

export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

export interface EntryBody {
  id: string;
  name: string;
  partySize: number;
  status: string;
  receivedAt: string;
  queueSequence: number;
  version: number;
  businessDate: string;
}

export interface JoinBody {
  entry: EntryBody;
  position: number;
  ahead: number;
  quotedWaitMinutes: number | null;
  approx: true;
  quote: string;
  queueToken: string | null;
}

export interface MessageBody {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  template: string;
  subject: string;
  body: string;
  createdAt: string;
  status: string;
  failureReason?: string;
  notSentReason?: string;
  entryId?: string;
  reservationId?: string;
  sentAt?: string;
  partyName?: string;
}

export interface Window {
  days: number[];
  start: string;
  end: string;
  turnMinutes: number;
  depositRequired?: boolean;
}

export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

let n = 0;
export const uniq = (): string => `${process.pid}-${++n}-${randomBytes(3).toString('hex')}`;

/** A fresh address for each call, so per-address limits of one test never reach another. */
export const freshAddress = (): string => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;

export interface SandboxOptions {
  /** Shown in the venue list and the board's top bar ('The Test Kitchen' unless told). */
  name?: string;
  timeZone?: string;
  clock: string;
  windows?: Window[];
  published?: boolean;
  preset?: 'restaurant' | 'workshop';
  poolCapacity?: number;
  tables?: Array<{ label: string; capacity: number }>;
  patch?: Record<string, unknown>;
}

export interface Sandbox {
  id: string;
  slug: string;
  tableIds: Record<string, string>;
}

/** A sandbox venue with a simulated clock, its windows, tables and settings, all set up through the API. */
export async function sandboxVenue(t: TestApp, owner: Staff, o: SandboxOptions): Promise<Sandbox> {
  const preset = o.preset ?? 'restaurant';
  const res = await request(t.baseUrl)
    .post('/v1/venues')
    .set(owner.auth)
    .send({
      slug: `rq-${uniq()}`,
      name: o.name ?? 'The Test Kitchen',
      timeZone: o.timeZone ?? 'America/Chicago',
      preset,
      sandbox: true,
      clock: o.clock,
      ...(o.poolCapacity !== undefined ? { poolCapacity: o.poolCapacity } : {}),
    })
    .expect(201);
  const venue = res.body as { id: string; slug: string };
  for (const w of o.windows ??
    (preset === 'restaurant' ? [{ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 20 }] : [])) {
    await request(t.baseUrl).post(`/v1/venues/${venue.id}/service-windows`).set(owner.auth).send(w).expect(201);
  }
  const tableIds: Record<string, string> = {};
  for (const table of o.tables ?? []) {
    const r = await request(t.baseUrl).post(`/v1/venues/${venue.id}/tables`).set(owner.auth).send(table).expect(201);
    tableIds[table.label] = (r.body as { id: string }).id;
  }
  const patch = { ...(o.published !== undefined ? { published: o.published } : {}), ...(o.patch ?? {}) };
  if (Object.keys(patch).length > 0)
    await request(t.baseUrl).patch(`/v1/venues/${venue.id}`).set(owner.auth).send(patch).expect(200);
  return { id: venue.id, slug: venue.slug, tableIds };
}

/**
 * A live venue (no simulated clock: it reads the app's clock) serving all day, every day, with its
 * tables: what the outbox relay sends for, where a sandbox's messages are only recorded.
 */
export async function liveVenue(
  t: TestApp,
  owner: Staff,
  o: { tables?: Array<{ label: string; capacity: number }> } = {},
): Promise<Sandbox> {
  const res = await request(t.baseUrl)
    .post('/v1/venues')
    .set(owner.auth)
    .send({ slug: `live-${uniq()}`, name: 'The Test Kitchen', timeZone: 'America/Chicago', preset: 'restaurant' })
    .expect(201);
  const venue = res.body as { id: string; slug: string };
  // Every minute of the day, on the real clock: one window to 23:59 would leave a test that runs in
  // the minute before midnight in Chicago (05:59 UTC) without a service, so two windows meet at noon.
  for (const [start, end] of [
    ['00:00', '12:00'],
    ['12:00', '00:00'],
  ]) {
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start, end, turnMinutes: 20 })
      .expect(201);
  }
  const tableIds: Record<string, string> = {};
  for (const table of o.tables ?? []) {
    const r = await request(t.baseUrl).post(`/v1/venues/${venue.id}/tables`).set(owner.auth).send(table).expect(201);
    tableIds[table.label] = (r.body as { id: string }).id;
  }
  return { id: venue.id, slug: venue.slug, tableIds };
}

export async function moveClock(t: TestApp, owner: Staff, venueId: string, now: string): Promise<void> {
  await request(t.baseUrl).post(`/v1/venues/${venueId}/clock`).set(owner.auth).send({ now }).expect(200);
}

export function deskJoin(t: TestApp, staff: Staff, venueId: string, body: Record<string, unknown>): request.Test {
  return request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(staff.auth).send(body);
}

export function publicJoin(t: TestApp, slug: string, body: Record<string, unknown>): request.Test {
  return request(t.baseUrl).post(`/v1/public/venues/${slug}/queue`).set('X-Forwarded-For', freshAddress()).send(body);
}

/** A party of `partySize` with its own email. */
export const party = (partySize: number, name = `Party ${uniq()}`): Record<string, unknown> => ({
  name,
  partySize,
  email: `guest-${uniq()}@example.test`,
});

export async function joined(t: TestApp, staff: Staff, venueId: string, body: Record<string, unknown>): Promise<JoinBody> {
  return (await deskJoin(t, staff, venueId, body).expect(201)).body as JoinBody;
}

export function exchange(t: TestApp, token: string, from = freshAddress()): request.Test {
  return request(t.baseUrl).post('/v1/queue-sessions').set('X-Forwarded-For', from).send({ token });
}

export const queueSession = (sessionToken: string): { Authorization: string } => ({
  Authorization: `QueueSession ${sessionToken}`,
});

export async function activeEntries(t: TestApp, staff: Staff, venueId: string): Promise<Array<EntryBody & { position: number }>> {
  const res = await request(t.baseUrl).get(`/v1/venues/${venueId}/queue`).set(staff.auth).expect(200);
  return (res.body as { entries: Array<EntryBody & { position: number }> }).entries;
}

export async function messages(t: TestApp, manager: Staff, venueId: string): Promise<MessageBody[]> {
  return (await request(t.baseUrl).get(`/v1/venues/${venueId}/messages`).set(manager.auth).expect(200)).body as MessageBody[];
}

export const errorOf = (res: request.Response): ErrorBody['error'] => (res.body as ErrorBody).error;

/** The status and code of a refusal, for one `toEqual`. */
export const refusal = (res: request.Response): { status: number; code: string | undefined } => ({
  status: res.status,
  code: (res.body as Partial<ErrorBody>).error?.code,
});
