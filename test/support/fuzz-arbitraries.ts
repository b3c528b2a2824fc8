import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FieldShape } from './route-bodies.js';

/**
 * The input classes the fuzz generates (issue 12): control characters, deep nesting, extreme numbers
 * and dates, prototype-named keys, huge arrays, plus odd strings and ids of every shape. A value a
 * JSON.stringify cannot write (1e999, -0) travels as a RAW marker replaced in the text sent.
 */

/** Keys named like Object.prototype members (class-transformer treated them as the instance's own). */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'prototype',
];

export const FIELD_NAMES = [
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
  'entryVersion',
  'reason',
  'entryId',
  'offerId',
  'reservationId',
  'tableId',
  'notes',
  'status',
  'startsAt',
  'at',
  'limit',
  'before',
  'from',
  'to',
  'subjectId',
  'country',
  'channel',
  ...PROTOTYPE_KEYS,
  '',
];

const RAW = '\u0001RAW:';
/** A JSON number that JSON.stringify cannot write: sent as written. */
const raw = (text: string): string => `${RAW}${text}`;
/** The text to send: RAW markers become the bare JSON numbers they stand for. */
export const toJson = (v: unknown): string =>
  (JSON.stringify(v) ?? 'null').replace(/"\\u0001RAW:([^"]*)"/g, (_m, text: string) => text);

export const extremeNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  0,
  -1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER * 1000,
  1e300,
  -1e308,
  5e-324,
  0.5,
  -7.25,
  raw('1e999'),
  raw('-1e999'),
  raw('-0'),
  raw('1e-400'),
  raw('123456789012345678901234567890'),
  raw('1.0'),
  raw('1E2'),
);

export const extremeDate: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '9999-12-31T23:59:59Z',
      '9999-12-31T19:00:00Z',
      '0001-01-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '-000001-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:00:00Z',
      '1999-12-31T23:59:59.999Z',
      '2000-01-01T00:00:00Z',
      '2100-12-31T23:59:59.999Z',
      '2101-01-01T00:00:00Z',
      '2100-12-31T23:30:00-14:00',
      '2026-10-09T18:00:00+14:00',
      '2026-10-09T18:00:00-12:00',
      '2026-10-09T18:00:00+23:59',
      '2026-02-29T12:00:00Z',
      '2028-02-29T12:00:00Z',
      '2026-03-08T08:30:00Z',
      '2026-11-01T06:30:00Z',
      '2026-10-09',
      '2026-10-09T24:00:00Z',
      '2026-10-09T18:00:60Z',
      '2026-10-09T18:00:00.123456789Z',
      '20261009T180000Z',
      '2026-W41-5',
      '2026-282',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  },
);

export const controlChars: fc.Arbitrary<string> = fc.oneof(
  // NUL first of all: PostgreSQL text cannot hold it.
  { arbitrary: fc.constant('\u0000'), weight: 3 },
  { arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), weight: 2 },
  { arbitrary: fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c)), weight: 1 },
  {
    arbitrary: fc.constantFrom('\u2028', '\u2029', '\u202E', '\u200B', '\uFEFF', '\uFFFE', '\uFFFF', '\uD83D', '\uDC00'),
    weight: 1,
  },
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
export const unicodeText = fc
  .array(fc.oneof(nastyChars, controlChars, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 20 })
  .map((a) => a.join(''));
/** A string with control characters inside something that otherwise looks valid. */
export const taint = (valid: string): fc.Arbitrary<string> =>
  fc.tuple(controlChars, fc.nat({ max: valid.length })).map(([c, i]) => valid.slice(0, i) + c + valid.slice(i));

export const longText = fc
  .tuple(fc.integer({ min: 1_000, max: 60_000 }), fc.constantFrom('x', 'é', '😀', '\u0000', 'ab '))
  .map(([n, c]) => c.repeat(Math.max(1, Math.floor(n / c.length / (c === '😀' || c === '\u0000' ? 6 : 1)))));

const nanLike = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1',
  '0x10',
  '3',
  '',
  ' ',
  'null',
  'true',
  '{}',
  '[]',
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

/** 1,000 to 12,000 elements (the 64 KB body limit allows about 30,000 small ones). */
export const hugeArray: fc.Arbitrary<unknown[]> = fc
  .tuple(fc.integer({ min: 1_000, max: 12_000 }), fc.constantFrom<unknown>(1, 0, 7, 'x', null, true, [], {}))
  .map(([n, v]) => Array.from({ length: n }, () => v));
export const hugeIdArray: fc.Arbitrary<string[]> = fc
  .integer({ min: 100, max: 1_500 })
  .map((n) => Array.from({ length: n }, () => randomUUID()));

/**
 * A value nested deep inside objects or arrays: around the 32-level bound as real objects, or far
 * past it as raw array text (JSON.stringify itself overflows on thousands of levels).
 */
export const deepValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.integer({ min: 28, max: 40 }), fc.boolean()).map(([depth, arrays]) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
    return v;
  }),
  fc.integer({ min: 100, max: 6_000 }).map((n) => raw(`${'['.repeat(n)}1${']'.repeat(n)}`)),
);
/** The same as raw text, deep enough that building it as an object would itself be slow. */
export const deepRaw: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 30, max: 8_000 }), fc.constantFrom(['{"a":', '}'], ['[', ']'], ['{"__proto__":', '}']))
  .map(([n, [open, close]]) => `${open.repeat(n)}1${close.repeat(n)}`);

export const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  extremeNumber,
  nanLike,
  unicodeText,
  fc.uuid(),
  extremeDate,
  fc.string({ maxLength: 40 }),
);

export const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 10 })), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** Anything hostile for one field: every class above. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: leaf, weight: 4 },
  { arbitrary: controlChars, weight: 2 },
  { arbitrary: extremeNumber, weight: 2 },
  { arbitrary: extremeDate, weight: 2 },
  { arbitrary: deepValue, weight: 1 },
  { arbitrary: hugeArray, weight: 1 },
  { arbitrary: hugeIdArray, weight: 1 },
  { arbitrary: longText, weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS), leaf, { minKeys: 1, maxKeys: 2 }), weight: 1 },
  { arbitrary: value, weight: 2 },
);

/** An object body: known-looking field names with hostile values, sometimes a very long string. */
export const objectBody: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostile, { minKeys: 1, maxKeys: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 5 }),
  fc.constant({}),
);

/** The raw text sent as application/json: objects, non-objects, deep nesting, and some that are not JSON at all. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: objectBody.map(toJson), weight: 6 },
  { arbitrary: value.map(toJson), weight: 2 },
  { arbitrary: deepRaw, weight: 1 },
  { arbitrary: hugeArray.map(toJson), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '{',
      '{"a":',
      '[1,',
      'nul',
      '{"a":1}}',
      '\u0000',
      '"unterminated',
      '{"__proto__":{"x":1}}',
      'NaN',
      '{"a":1e999}',
    ),
    weight: 1,
  },
);

/** A path segment: ids of every shape, well formed or not, with control characters. */
export const pathId: fc.Arbitrary<string> = fc.oneof(
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
    '\u0000',
    'a\u0000b',
    '__proto__',
    'constructor',
  ),
  fc.string({ minLength: 1, maxLength: 300 }),
  unicodeText.filter((s) => s.length > 0),
  controlChars,
);

/** A query string: known and prototype-named keys, repeated keys, bracket keys, hostile values. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.constantFrom('a[b]', 'a[]', 'limit', 'limit', 'before', 'subjectId')),
      fc.oneof(fc.constantFrom('1', '0', '-1', '500', '501', '1e999', '9007199254740993', ''), pathId, extremeDate),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${segment(k)}=${segment(v)}`).join('&'));

/** A path segment as a client can send it (a lone surrogate has no UTF-8 form: it becomes U+FFFD). */
export const segment = (s: string): string =>
  encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

// ---- bodies that pass validation, then carry one hostile value -----------------------------------

export interface FuzzContext {
  /** Real ids (tables, entries, offers, reservations, visits) harvested from the fixture. */
  ids: string[];
  tableIds: string[];
  /** The sandbox clock, around which valid instants are drawn. */
  now: number;
}

const HOUR = 3_600_000;

/** A value the field's rules accept, as far as its rule names tell (unknown rules: a plain word). */
export function validValue(field: FieldShape, ctx: FuzzContext): fc.Arbitrary<unknown> {
  const r = field.rules;
  const num = (name: string, fallback: number): number => {
    const c = r.get(name)?.[0];
    return typeof c === 'number' ? c : fallback;
  };
  if (field.nested) return validBody(field.nested, ctx);
  if (r.has('isIn')) return fc.constantFrom(...((r.get('isIn')?.[0] as unknown[]) ?? [null]));
  if (r.has('isBoolean')) return fc.boolean();
  if (r.has('isInstant') || r.has('isISO8601'))
    return fc.oneof(
      fc.integer({ min: -48, max: 24 * 14 }).map((h) => new Date(ctx.now + h * HOUR).toISOString()),
      fc.constantFrom('2000-01-01T00:00:00Z', '2100-12-31T23:59:59Z', '2100-12-31T23:00:00-05:00'),
    );
  if (r.has('isArray') || field.each.size > 0) {
    const min = num('arrayMinSize', 0);
    const max = Math.min(num('arrayMaxSize', 8), 8);
    const item: fc.Arbitrary<unknown> = field.each.has('isUUID')
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...ctx.tableIds), weight: 4 },
          { arbitrary: fc.constantFrom(...ctx.ids), weight: 1 },
        )
      : field.each.has('isInt') || r.has('isInt')
        ? fc.integer({ min: num('min', 1), max: Math.min(num('max', 7), 1000) })
        : fc.string({ minLength: 1, maxLength: 8 });
    return fc.uniqueArray(item, { minLength: min, maxLength: Math.max(min, max) });
  }
  if (r.has('isInt') || r.has('isNumber')) {
    const min = num('min', 0);
    const max = num('max', min + 1_000);
    return fc.oneof(fc.integer({ min, max: Math.min(max, min + 10) }), fc.constantFrom(min, max));
  }
  if (r.has('isUUID')) return fc.oneof(fc.constantFrom(...ctx.ids), fc.uuid());
  if (r.has('isEmail')) return fc.nat().map((n) => `fz-${n}@example.test`);
  if (r.has('isTimeZone')) return fc.constantFrom('America/Chicago', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Australia/Lord_Howe');
  const pattern = r.get('matches')?.[0];
  if (pattern instanceof RegExp) {
    const candidates = [
      ...Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:${h % 2 ? '30' : '00'}`),
      '23:59',
      `fz-${randomUUID().slice(0, 8)}`,
      'US',
      '+13125550100',
    ].filter((c) => pattern.test(c));
    if (candidates.length > 0) return fc.constantFrom(...candidates);
  }
  const minLen = Math.max(1, num('minLength', 1));
  const maxLen = Math.max(minLen, Math.min(num('maxLength', 40), 40));
  return fc.oneof(
    fc.string({ minLength: minLen, maxLength: maxLen }).filter((s) => s.trim().length > 0),
    fc.constantFrom('US', 'GB', '+1 312 555 0100', 'email', 'sms', 'host', 'manager', 'Ada Lovelace'),
  );
}

/** A body of the shape's fields (optional ones sometimes left out). */
export function validBody(shape: FieldShape[], ctx: FuzzContext): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of shape) model[f.name] = validValue(f, ctx);
  const required = shape.filter((f) => !f.optional).map((f) => f.name);
  return fc.record(model, { requiredKeys: required });
}

/** A hostile value of the field's own kind, so that it passes the type checks it can and goes deep. */
function hostileFor(field: FieldShape, ctx: FuzzContext): fc.Arbitrary<unknown> {
  const r = field.rules;
  if (field.nested) return hostileBodyValue(field.nested, ctx);
  if (r.has('isInstant') || r.has('isISO8601')) return extremeDate;
  if (r.has('isArray') || field.each.size > 0)
    return fc.oneof(hugeIdArray, hugeArray, fc.array(hostile, { maxLength: 4 }), deepValue);
  if (r.has('isInt') || r.has('isNumber')) return extremeNumber;
  return fc.oneof(
    { arbitrary: validValue(field, ctx).chain((v) => (typeof v === 'string' ? taint(v) : fc.constant(v))), weight: 4 },
    { arbitrary: longText, weight: 1 },
    { arbitrary: unicodeText, weight: 1 },
  );
}

/**
 * A valid body, then (mostly) one change: a field's value replaced by a hostile one of its own kind
 * (a control character in a valid string, an extreme date, an extreme number, a huge array) or of any
 * kind, or a prototype-named key added at the top or inside a nested object.
 */
function hostileBodyValue(shape: FieldShape[], ctx: FuzzContext): fc.Arbitrary<Record<string, unknown>> {
  if (shape.length === 0) return fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostile, { maxKeys: 3 });
  const oneField = fc.constantFrom(...shape).chain((f) => hostileFor(f, ctx).map((v) => [f.name, v] as const));
  const anyField = fc.tuple(fc.constantFrom(...shape.map((f) => f.name)), hostile);
  return fc
    .tuple(
      validBody(shape, ctx),
      fc.oneof(
        { arbitrary: fc.constant(null), weight: 1 },
        { arbitrary: oneField, weight: 4 },
        { arbitrary: anyField, weight: 2 },
        { arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map((k) => [k, 1] as const), weight: 1 },
      ),
    )
    .map(([body, change]) => {
      if (change === null) return body; // valid all through: the success paths, at extremes
      const out: Record<string, unknown> = { ...body };
      // defineProperty: assigning `__proto__` would set the prototype instead of a key that is sent.
      Object.defineProperty(out, change[0], { value: change[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
}

/** The text of hostileBodyValue, sent as application/json. */
export function hostileBody(shape: FieldShape[], ctx: FuzzContext): fc.Arbitrary<string> {
  return hostileBodyValue(shape, ctx).map(toJson);
}
