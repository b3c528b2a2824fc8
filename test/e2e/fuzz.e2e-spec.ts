import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, freshAddress, joined, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { violations } from '../support/invariants.js';
import { declaredRoutes, type DeclaredRoute } from '../support/app-routes.js';

/**
 * Body and path fuzz of every POST/PATCH route the running app serves (read from its router, as the
 * access matrix does): hostile JSON never earns a 500, every refusal is the error envelope, and a
 * refused command changes nothing, neither for a non-member (404 before anything runs) nor for the
 * owner (an unknown field: 400 VALIDATION from the global pipe before anything runs).
 */

const LONG_TEST_MS = 240_000;
const SEED = process.env['FUZZ_SEED'] !== undefined ? Number(process.env['FUZZ_SEED']) : Date.now() % 2 ** 31;

type Route = DeclaredRoute & { method: 'POST' | 'PATCH' };

/** The POST and PATCH routes Nest maps (the same walk as the access matrix). */
function writeRoutes(app: NestExpressApplication): Route[] {
  return declaredRoutes(app).filter((r): r is Route => r.method === 'POST' || r.method === 'PATCH');
}

// ---- arbitraries -------------------------------------------------------------------------------

const FIELD_NAMES = [
  'name',
  'partySize',
  'email',
  'phone',
  'slug',
  'timeZone',
  'preset',
  'sandbox',
  'clock',
  'poolCapacity',
  'days',
  'start',
  'end',
  'turnMinutes',
  'depositRequired',
  'label',
  'capacity',
  'tableIds',
  'role',
  'password',
  'token',
  'now',
  'published',
  'policy',
  'holdSeconds',
  'version',
  'reason',
  'entryId',
  'reservationId',
  'tableId',
  'notes',
  'status',
  'startsAt',
  'at',
  '__proto__',
  'constructor',
  'toString',
  '',
];

const hugeOrOdd = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER * 1000,
  1e308,
  -1e308,
  5e-324,
  0.5,
  3.14159,
  -7.25,
);
const nanLike = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1',
  '0x10',
  '3',
  '3.0',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '2026-13-45T25:61:00Z',
  '00:00',
  '24:00',
  '99:99',
  'America/Nowhere',
  "'; DROP TABLE venues; --",
  '../../etc/passwd',
  '%00',
  '${7*7}',
  '<script>alert(1)</script>',
);
const nastyChars = fc.constantFrom(
  '\u0000',
  '\u202E',
  '\u200F',
  '\u200B',
  '\uFEFF',
  '\uD83D',
  '\uDC00',
  '😀',
  '👨‍👩‍👧‍👦',
  'שלום',
  'مرحبا',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '\n',
  '\t',
  '\\',
  '"',
  '\u0085',
);
const unicodeText = fc
  .array(fc.oneof(nastyChars, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 20 })
  .map((a) => a.join(''));
const longText = fc
  .tuple(fc.integer({ min: 1_000, max: 60_000 }), fc.constantFrom('x', 'é', '😀', '\u0000', 'ab '))
  .map(([n, c]) => c.repeat(Math.max(1, Math.floor(n / c.length / (c === '😀' || c === '\u0000' ? 6 : 1)))));

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  hugeOrOdd,
  nanLike,
  unicodeText,
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.string({ maxLength: 40 }),
);

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 10 })), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** An object body: known-looking field names with hostile values, sometimes a very long string. */
const objectBody: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(leaf, longText), { minKeys: 1, maxKeys: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 5 }),
  fc.constant({}),
);

/** The raw text sent as application/json: objects, non-objects, and some that are not JSON at all. */
const rawBody: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: objectBody.map((b) => JSON.stringify(b)), weight: 6 },
  { arbitrary: value.map((v) => JSON.stringify(v) ?? 'null'), weight: 2 },
  {
    arbitrary: fc.constantFrom('{', '{"a":', '[1,', 'nul', '{"a":1}}', '\u0000', '"unterminated', '{"__proto__":{"x":1}}', 'NaN'),
    weight: 1,
  },
);

/** A path segment for a non-venue parameter: ids of every shape, well formed or not. */
const pathId: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constant(randomUUID()),
  fc.constantFrom(
    '0',
    '-1',
    '1e9',
    'null',
    'undefined',
    '00000000-0000-0000-0000-000000000000',
    'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
    '..',
    '%',
  ),
  fc.string({ minLength: 1, maxLength: 300 }),
  unicodeText.filter((s) => s.length > 0),
);

// ---- judging -----------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: unknown;
}

function envelopeProblem(a: Answer): string | undefined {
  if (a.status >= 500) return `answered ${a.status}`;
  if (a.status < 400) return undefined;
  const b = a.body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  const keys = b && typeof b === 'object' ? Object.keys(b) : [];
  const e = b?.error;
  const ok =
    keys.length === 1 &&
    e !== undefined &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    e.details !== null &&
    typeof e.details === 'object' &&
    Object.keys(e).sort().join(',') === 'code,details,message';
  return ok ? undefined : `refusal is not the {error:{code,message,details}} envelope`;
}

const codeOf = (a: Answer): string | undefined => (a.body as { error?: { code?: string } } | undefined)?.error?.code;

const parses = (raw: string): boolean => {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
};

/** A path segment as a client can send it (a lone surrogate has no UTF-8 form: it becomes U+FFFD). */
const segment = (s: string): string =>
  encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

const short = (s: string): string => (s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s);

async function send(
  t: TestApp,
  method: 'POST' | 'PATCH',
  path: string,
  raw: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const agent = request(t.baseUrl);
  const req = method === 'POST' ? agent.post(path) : agent.patch(path);
  const res = await req.set(headers).set('Content-Type', 'application/json').send(raw);
  return { status: res.status, body: res.body as unknown };
}

/** Everything that "no count changed" covers: the API's counts and queue, and the rows behind them. */
async function snapshot(t: TestApp, owner: Staff, venues: Sandbox[]): Promise<unknown> {
  const ds = t.app.get<DataSource>(getDataSourceToken());
  const api: Record<string, unknown> = {};
  for (const v of venues) {
    for (const what of ['counts', 'queue']) {
      const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/${what}`).set(owner.auth).expect(200);
      api[`${v.id}/${what}`] = res.body;
    }
  }
  const rows: Record<string, unknown> = {};
  for (const table of ['venues', 'queue_entries', 'reservations', 'offers', 'history', 'board_events', 'visits']) {
    const [r] = (await ds.query(`SELECT COUNT(*)::int AS n FROM ${table}`)) as Array<{ n: number }>;
    rows[table] = r?.n;
  }
  const versions = (await ds.query(`SELECT id, version FROM venues ORDER BY id`)) as unknown[];
  return { api, rows, versions };
}

describe('fuzz: hostile bodies and path ids on every POST/PATCH route', () => {
  let t: TestApp;
  let routes: Route[];
  let owner: Staff;
  let outsider: Staff;
  let workshop: Sandbox;
  let restaurant: Sandbox;
  let sent = 0;

  beforeAll(async () => {
    t = await startApp();
    routes = writeRoutes(t.app);
    owner = await signUp(t, 'fuzz-owner');
    const clock = '2026-10-09T18:00:00Z';
    restaurant = await sandboxVenue(t, owner, {
      clock,
      published: true,
      windows: [{ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 20 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    workshop = await sandboxVenue(t, owner, { clock, preset: 'workshop', poolCapacity: 6, published: true });
    for (const v of [restaurant, workshop]) {
      await joined(t, owner, v.id, party(2));
      await joined(t, owner, v.id, party(3));
    }
    await request(t.baseUrl)
      .post(`/v1/venues/${workshop.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Booked', partySize: 2 })
      .expect((r) => {
        if (r.status >= 300) throw new Error(`workshop reservation: ${r.status} ${JSON.stringify(r.body)}`);
      });
    const otherOwner = await signUp(t, 'fuzz-outsider');
    await createVenue(t, otherOwner);
    outsider = otherOwner;
  });
  afterAll(() => t.close());

  it(
    'never answers 500, always refuses with the envelope, and changes no count',
    async () => {
      const problems: string[] = [];
      const record = (who: string, method: string, path: string, raw: string, a: Answer, extra?: string): void => {
        sent++;
        const p = extra ?? envelopeProblem(a);
        if (p)
          problems.push(
            `${who} ${method} ${short(path)} body=${short(raw)} -> ${a.status} ${JSON.stringify(a.body)?.slice(0, 300)}: ${p}`,
          );
      };
      const venueRoutes = routes.filter((r) => r.rule?.kind === 'venue-role');
      const otherRoutes = routes.filter((r) => r.rule?.kind !== 'venue-role');
      expect(venueRoutes.length).toBeGreaterThan(10);
      expect(otherRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
        expect.arrayContaining([
          'POST /v1/public/venues/:slug/queue',
          'POST /v1/queue-sessions',
          'POST /v1/booking-sessions',
          'POST /v1/auth/sessions',
        ]),
      );
      const fill = (path: string, venueId: string, ids: string[], slug?: string): string => {
        let i = 0;
        return path.replace(/[:*](\w+)/g, (_m, name: string) => {
          if (name === 'venueId') return venueId;
          if (name === 'slug' && slug !== undefined) return segment(slug);
          return segment(ids[i++ % ids.length] ?? randomUUID());
        });
      };
      const ids = fc.array(pathId, { minLength: 3, maxLength: 3 });
      const before = await snapshot(t, owner, [workshop, restaurant]);

      // 1. A member of another venue, with any body at all, on both sandboxes: 404 before anything runs.
      for (const route of venueRoutes) {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(workshop, restaurant), rawBody, ids, async (v, raw, pathIds) => {
            const path = fill(route.path, v.id, pathIds);
            const a = await send(t, route.method, path, raw, outsider.auth);
            // Only a body the parser refuses (not JSON, or over the 64 KB limit) is refused before the guard.
            const ok =
              (a.status === 404 && codeOf(a) === 'NOT_FOUND') ||
              ((!parses(raw) || Buffer.byteLength(raw) > 64 * 1024) && a.status === 400) ||
              a.status === 413;
            record('outsider', route.method, path, raw, a, envelopeProblem(a) ?? (ok ? undefined : 'expected 404 NOT_FOUND'));
          }),
          { numRuns: 10, seed: SEED + 1 * 1000 + routes.indexOf(route), endOnFailure: true },
        );
      }

      // 2. The owner, with bodies that carry an unknown field: 400 VALIDATION before anything runs.
      for (const route of venueRoutes.filter((r) => r.takesBody)) {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(workshop, restaurant), objectBody, ids, async (v, body, pathIds) => {
            const path = fill(route.path, v.id, pathIds);
            const raw = JSON.stringify({ ...body, __fuzz: true });
            const a = await send(t, route.method, path, raw, owner.auth);
            record('owner', route.method, path, raw, a, envelopeProblem(a) ?? (a.status === 400 ? undefined : 'expected 400'));
          }),
          { numRuns: 10, seed: SEED + 2 * 1000 + routes.indexOf(route), endOnFailure: true },
        );
      }

      // 3. Random venue ids (well formed or not) as the owner: never a member of what does not exist.
      for (const route of venueRoutes.filter((r) => r.takesBody)) {
        await fc.assert(
          fc.asyncProperty(pathId, rawBody, ids, async (venueId, raw, pathIds) => {
            const path = fill(route.path, segment(venueId), pathIds);
            const a = await send(t, route.method, path, raw, owner.auth);
            record(
              'owner (random venue)',
              route.method,
              path,
              raw,
              a,
              envelopeProblem(a) ?? (a.status >= 400 ? undefined : 'expected a refusal'),
            );
          }),
          { numRuns: 2, seed: SEED + 3 * 1000 + routes.indexOf(route), endOnFailure: true },
        );
      }

      // 4. Public, party-session and signed-in routes: anonymous (from many addresses) and signed in as the outsider.
      for (const route of otherRoutes) {
        await fc.assert(
          fc.asyncProperty(
            fc.boolean(),
            fc.oneof(fc.constantFrom(restaurant.slug, workshop.slug), pathId),
            rawBody,
            objectBody,
            ids,
            async (signedIn, slug, raw, body, pathIds) => {
              const path = fill(route.path, randomUUID(), pathIds, slug);
              // A real venue's public queue, or a route that could act for the caller: only invalid bodies.
              const mustBeInvalid = slug === restaurant.slug || slug === workshop.slug || route.rule?.kind === 'signed-in';
              const text = mustBeInvalid ? JSON.stringify({ ...body, __fuzz: true }) : raw;
              const headers = { 'X-Forwarded-For': freshAddress(), ...(signedIn ? outsider.auth : {}) };
              const a = await send(t, route.method, path, text, headers);
              record(
                signedIn ? 'outsider' : 'anonymous',
                route.method,
                path,
                text,
                a,
                envelopeProblem(a) ?? (a.status >= 400 ? undefined : 'expected a refusal'),
              );
            },
          ),
          { numRuns: 15, seed: SEED + 4 * 1000 + routes.indexOf(route), endOnFailure: true },
        );
      }

      const after = await snapshot(t, owner, [workshop, restaurant]);
      process.stdout.write(`fuzz: ${sent} requests over ${routes.length} POST/PATCH routes, seed ${SEED}\n`);
      expect(problems).toEqual([]);
      expect(after).toEqual(before);
      expect(sent).toBeGreaterThanOrEqual(300);
      expect(await violations(t.app.get<DataSource>(getDataSourceToken()))).toEqual([]);
    },
    LONG_TEST_MS,
  );
});
