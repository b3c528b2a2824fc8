import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACCESS_RULE, roleRank, type Role } from '@hostboard/core';
import { declaredRoutes, type DeclaredRoute } from '../support/app-routes.js';
import { ModulesContainer } from '@nestjs/core';
import { servedRoutes } from '../../apps/api/src/route-table.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, createVenue, inviteAndClaim, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * The access matrix: every route the running app serves, read from its router (a new route is
 * covered without editing this file), called by every kind of caller, against the rule it declares.
 */

interface Route {
  method: string;
  path: string;
}

const key = (r: Route): string => `${r.method} ${r.path}`;

/** Routes SwaggerModule puts straight on the router (not Nest controllers, so no access rule): /docs*. */
const isSwaggerRoute = (path: string): boolean => /^\/docs(?:$|[/-])/.test(path);

/**
 * What the router actually answers: every route Fastify was given, less the HEAD twin it adds to
 * each GET route (Nest declares the GET; Express answered HEAD on it the same way).
 */
function registeredRoutes(app: NestFastifyApplication): Route[] {
  const served = servedRoutes(app);
  const gets = new Set(served.filter((r) => r.method === 'GET').map((r) => r.path));
  return served.filter((r) => !(r.method === 'HEAD' && gets.has(r.path)));
}

type CallerName = 'anonymous' | 'bogus bearer' | 'other-venue host' | Role;
const CALLERS: CallerName[] = ['anonymous', 'bogus bearer', 'other-venue host', 'host', 'manager', 'owner'];

/** API.md "Errors": the HTTP status of each code. */
const STATUS_OF: Record<string, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  OCCUPANCY_CONFLICT: 409,
  WAITLIST_DUPLICATE: 409,
  WAITLIST_STALE: 409,
  WAITLIST_OFFER_CONFLICT: 409,
  WAITLIST_OFFER_EXPIRED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  RULE_VIOLATION: 422,
  PAID_BOOKING_UNAVAILABLE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
};

interface Answer {
  status: number;
  body: unknown;
}

const codeOf = (a: Answer): string | undefined => (a.body as { error?: { code?: string } } | undefined)?.error?.code;

/** Fills `:venueId` with the route's venue, any other parameter with a random UUID. */
function concrete(path: string, venueId: string): string {
  return path.replace(/[{}]/g, '').replace(/[:*](\w+)/g, (_m, name: string) => (name === 'venueId' ? venueId : randomUUID()));
}

const paramsOf = (path: string): string[] => [...path.matchAll(/[:*](\w+)/g)].map((m) => m[1] ?? '');

async function call(t: TestApp, route: Route, path: string, auth: Record<string, string>): Promise<Answer> {
  const agent = request(t.baseUrl);
  const method = route.method === 'ALL' ? 'GET' : route.method;
  let req: request.Test;
  switch (method) {
    case 'GET':
      req = agent.get(path);
      break;
    case 'POST':
      req = agent.post(path).send({});
      break;
    case 'PATCH':
      req = agent.patch(path).send({});
      break;
    case 'PUT':
      req = agent.put(path).send({});
      break;
    case 'DELETE':
      req = agent.delete(path);
      break;
    case 'HEAD':
      req = agent.head(path);
      break;
    case 'OPTIONS':
      req = agent.options(path);
      break;
    default:
      throw new Error(`no way to call ${method}`);
  }
  const res = await req.set(auth);
  return { status: res.status, body: res.body as unknown };
}

/** What is wrong with one answer, judged against the route's rule (empty: nothing). */
function judge(route: DeclaredRoute, caller: CallerName, a: Answer, unknownVenueAnswer: Answer | undefined): string[] {
  const problems: string[] = [];
  const said = `${a.status} ${codeOf(a) ?? ''}`.trim();
  if (a.status === 500) problems.push(`answered 500 (${JSON.stringify(a.body)})`);
  if (a.status >= 400) {
    const b = a.body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
    const keys = b && typeof b === 'object' ? Object.keys(b) : [];
    const e = b?.error;
    const envelopeOk =
      keys.length === 1 &&
      e !== undefined &&
      typeof e.code === 'string' &&
      typeof e.message === 'string' &&
      e.details !== null &&
      typeof e.details === 'object' &&
      Object.keys(e).sort().join(',') === 'code,details,message';
    if (!envelopeOk) problems.push(`refusal is not the {error:{code,message,details}} envelope: ${JSON.stringify(a.body)}`);
    else if (STATUS_OF[e.code as string] !== undefined && STATUS_OF[e.code as string] !== a.status) {
      problems.push(`code ${String(e.code)} came with HTTP ${a.status}, API.md says ${STATUS_OF[e.code as string]}`);
    }
  }
  const expect = (ok: boolean, wanted: string): void => {
    if (!ok) problems.push(`expected ${wanted}, got ${said}`);
  };
  const is = (status: number, code: string): boolean => a.status === status && codeOf(a) === code;
  const staff = caller !== 'anonymous' && caller !== 'bogus bearer';
  const rule = route.rule;
  if (!rule) {
    problems.push('declares no access rule');
    return problems;
  }
  switch (rule.kind) {
    case 'public':
      expect(a.status !== 401 && a.status !== 403, 'neither 401 nor 403 (public)');
      break;
    case 'signed-in':
      if (!staff) expect(is(401, 'UNAUTHENTICATED'), '401 UNAUTHENTICATED');
      else expect(a.status !== 401 && a.status !== 403, 'neither 401 nor 403 (signed in)');
      break;
    case 'party-session':
      // A staff session opens no party route, and nobody here holds a party session.
      expect(a.status === 401 && (codeOf(a) === 'TOKEN_INVALID' || codeOf(a) === 'UNAUTHENTICATED'), '401 (no party session)');
      break;
    case 'venue-role': {
      if (!staff) {
        expect(is(401, 'UNAUTHENTICATED'), '401 UNAUTHENTICATED');
      } else if (caller === 'other-venue host') {
        expect(is(404, 'NOT_FOUND'), '404 NOT_FOUND (not a member: the venue is not confirmed)');
        if (unknownVenueAnswer && JSON.stringify(unknownVenueAnswer.body) !== JSON.stringify(a.body)) {
          problems.push(
            `a non-member learns the venue exists: ${JSON.stringify(a.body)} here, ${JSON.stringify(unknownVenueAnswer.body)} for an unknown venue id`,
          );
        }
      } else if (roleRank(caller as Role) < roleRank(rule.role)) {
        expect(is(403, 'FORBIDDEN'), `403 FORBIDDEN (needs ${rule.role})`);
      } else {
        expect(a.status !== 401 && a.status !== 403, `neither 401 nor 403 (${caller} >= ${rule.role})`);
        // With nothing but the venue in the path, a 404 can only mean the guard lost the member.
        if (paramsOf(route.path).every((p) => p === 'venueId')) expect(a.status !== 404, `not 404 (${caller} is a member)`);
      }
      break;
    }
  }
  return problems;
}

// Every route times six callers, each route with a venue and sign-ins of its own (password hashes
// on purpose): well inside 120 s on a quiet machine, past Jest's 120 s on a machine loaded twentyfold.
const LONG_TEST_MS = 300_000;

describe('access matrix: every route against its declared rule', () => {
  let t: TestApp;
  let routes: DeclaredRoute[];
  // Accounts (email + password); each route gets fresh sessions of them.
  let owner: Staff;
  let host: Staff;
  let manager: Staff;
  let otherHost: Staff;

  beforeAll(async () => {
    t = await startApp();
    routes = declaredRoutes(t.app);
    owner = await signUp(t, 'matrix-owner');
    const first = await createVenue(t, owner);
    // Their own passwords: an account keeps someone else's choice out of every other venue.
    host = await chooseOwnPassword(t, await addMember(t, first.id, owner, 'host'));
    manager = await chooseOwnPassword(t, await addMember(t, first.id, owner, 'manager'));
    const ownerB = await signUp(t, 'matrix-owner-b');
    const venueB = await createVenue(t, ownerB);
    otherHost = await addMember(t, venueB.id, ownerB, 'host');
  });
  afterAll(() => t.close());

  it('GET /v1/venues names the caller’s role at each venue (a board shows its tabs from it)', async () => {
    const mine = async (who: Staff): Promise<Array<{ id: string; role: string }>> =>
      (
        await request(t.baseUrl)
          .get('/v1/venues')
          .set((await signIn(t, who.email, who.password)).auth)
          .expect(200)
      ).body as Array<{ id: string; role: string }>;
    expect((await mine(owner)).map((v) => v.role)).toEqual(['owner']);
    expect((await mine(manager)).map((v) => v.role)).toEqual(['manager']);
    expect((await mine(host)).map((v) => v.role)).toEqual(['host']);
  });

  it('finds exactly the routes the router serves (apart from the /docs pages SwaggerModule mounts itself)', () => {
    const registered = registeredRoutes(t.app);
    const fromNest = routes.map(key).sort();
    const fromRouter = registered
      .filter((r) => !isSwaggerRoute(r.path))
      .map(key)
      .sort();
    expect(fromNest).toEqual(fromRouter);
    expect(new Set(fromNest).size).toBe(fromNest.length);
    // The walk sees the app, not an empty router: a few routes that API.md names.
    expect(fromNest).toEqual(
      expect.arrayContaining([
        'POST /v1/auth/sessions',
        'DELETE /v1/auth/sessions/current',
        'POST /v1/venues/:venueId/members',
        'GET /v1/venues/:venueId/queue/:entryId',
        'GET /v1/venues/:venueId/members',
        'PATCH /v1/venues/:venueId/members/:userId',
        'DELETE /v1/venues/:venueId/members/:userId',
        'POST /v1/venues/:venueId/members/:userId/password',
        'POST /v1/auth/password',
        'DELETE /v1/auth/sessions',
        'POST /v1/auth/invitations/claim',
        'GET /health',
      ]),
    );
  });

  it('every route declares an access rule, and every venue-role route names its :venueId', () => {
    expect(routes.filter((r) => r.rule === undefined).map((r) => `${key(r)} (${r.handler})`)).toEqual([]);
    expect(routes.filter((r) => r.rule?.kind === 'venue-role' && !paramsOf(r.path).includes('venueId')).map(key)).toEqual([]);
    expect(routes.filter((r) => r.rule?.kind === 'public' && !(r.rule.reason.trim().length > 0)).map(key)).toEqual([]);
  });

  it(
    'every caller gets what the rule says on every route',
    async () => {
      const violations: string[] = [];
      const table: string[] = [];
      for (const route of routes) {
        // A venue and sessions of this route's own, so that one route's call (a logout, a future
        // delete) cannot change what the next route sees.
        const ownerNow = await signIn(t, owner.email, owner.password);
        const venue = await createVenue(t, ownerNow);
        // Existing accounts join another venue by invitation, claimed by their holder (issue 13).
        for (const [who, role] of [
          [host, 'host'],
          [manager, 'manager'],
        ] as const) {
          await inviteAndClaim(t, venue.id, ownerNow, who, role);
        }
        const sessions: Record<CallerName, Record<string, string>> = {
          anonymous: {},
          'bogus bearer': { Authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
          'other-venue host': (await signIn(t, otherHost.email, otherHost.password)).auth,
          host: (await signIn(t, host.email, host.password)).auth,
          manager: (await signIn(t, manager.email, manager.password)).auth,
          owner: ownerNow.auth,
        };
        let unknownVenueAnswer: Answer | undefined;
        if (route.rule?.kind === 'venue-role') {
          // What a staff user gets for a venue id that does not exist: a non-member must get the same.
          unknownVenueAnswer = await call(t, route, concrete(route.path, randomUUID()), sessions['other-venue host']);
        }
        const row: string[] = [];
        for (const caller of CALLERS) {
          const answer = await call(t, route, concrete(route.path, venue.id), sessions[caller]);
          row.push(`${caller}=${answer.status}`);
          for (const p of judge(route, caller, answer, unknownVenueAnswer)) violations.push(`${key(route)} as ${caller}: ${p}`);
        }
        const rule = route.rule ? (route.rule.kind === 'venue-role' ? `venue-role:${route.rule.role}` : route.rule.kind) : 'NONE';
        table.push(`${key(route).padEnd(44)} ${rule.padEnd(18)} ${row.join(' ')}`);
      }
      if (process.env['ACCESS_MATRIX_PRINT']) process.stdout.write(`${table.join('\n')}\n`);
      expect(violations).toEqual([]);
      expect(table).toHaveLength(routes.length);
    },
    LONG_TEST_MS,
  );

  it('a route whose rule is taken away is refused to everyone, and the walk reports it', async () => {
    // Real metadata of a real route: GET /v1/venues loses its @SignedIn() for the length of this test.
    const target = routes.find((r) => key(r) === 'GET /v1/venues');
    expect(target).toBeDefined();
    const [cls, method] = (target as DeclaredRoute).handler.split('.') as [string, string];
    const controller = [...t.app.get(ModulesContainer).values()]
      .flatMap((m) => [...m.controllers.values()])
      .map((w) => w.metatype as (new (...args: never[]) => object) | null)
      .find((c) => c?.name === cls);
    const fn = (controller as unknown as { prototype: Record<string, object> }).prototype[method] as object;
    const saved: unknown = Reflect.getMetadata(ACCESS_RULE, fn);
    expect(saved).toEqual({ kind: 'signed-in' });
    Reflect.deleteMetadata(ACCESS_RULE, fn);
    try {
      const me = await signIn(t, owner.email, owner.password);
      const res = await request(t.baseUrl).get('/v1/venues').set(me.auth).expect(403);
      expect(res.body).toEqual({ error: { code: 'FORBIDDEN', message: 'This route declares no access rule.', details: {} } });
      const walked = declaredRoutes(t.app)
        .filter((r) => r.rule === undefined)
        .map(key);
      expect(walked).toEqual(['GET /v1/venues']);
      expect(
        judge({ ...(target as DeclaredRoute), rule: undefined }, 'owner', { status: res.status, body: res.body }, undefined),
      ).toContain('declares no access rule');
    } finally {
      Reflect.defineMetadata(ACCESS_RULE, saved, fn);
    }
    await request(t.baseUrl)
      .get('/v1/venues')
      .set((await signIn(t, owner.email, owner.password)).auth)
      .expect(200);
  });
});
