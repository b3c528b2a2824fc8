import { DateTime, IANAZone } from 'luxon';

/**
 * The fields an organizer types by hand, checked one by one before anything reads them: a missing
 * `expect.queue` crashed mid-replay ("Cannot read properties of undefined"), a held count typed as
 * "3" was added as text ("10 + 3 + 4 = 1034"), a misspelt time zone or an impossible date was blamed
 * on the "start" time, and a misspelt policy word came back as the api's raw 400. Each is refused
 * here with one line naming the row (or party) and the field, before any venue is set up.
 */
export function refuseMalformedFields(w: Record<string, unknown>): void {
  const tz = w['timeZone'];
  if (typeof tz === 'string' && !IANAZone.isValidZone(tz))
    fail(
      `"timeZone": ${JSON.stringify(tz)} is not a time zone name; use an IANA name such as "Asia/Kolkata" or "America/Chicago"`,
    );
  const date = w['date'];
  if (typeof date === 'string' && !(/^\d{4}-\d{2}-\d{2}$/.test(date) && DateTime.fromISO(date).isValid))
    fail(`"date": ${JSON.stringify(date)} is not a date; write it as YYYY-MM-DD, for example "2026-10-09"`);
  const policy = w['policy'];
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) return fail('"policy" is missing');
  const { order, onOfferExpired } = policy as Record<string, unknown>;
  if (order !== 'strict' && order !== 'host-pick')
    fail(`"policy.order" is "strict" or "host-pick", not ${JSON.stringify(order)}`);
  if (onOfferExpired !== 'leave-queue' && onOfferExpired !== 'keep-place')
    fail(`"policy.onOfferExpired" is "leave-queue" or "keep-place", not ${JSON.stringify(onOfferExpired)}`);
  for (const list of ['reservations', 'waiting'] as const) {
    const parties = w[list];
    if (!Array.isArray(parties)) continue;
    for (const [i, p] of (parties as unknown[]).entries()) {
      const where = `${list} entry ${i + 1}`;
      if (!isObject(p)) return fail(`${where} is not an object`);
      if (!isName(p['ref'])) fail(`${where} has no "ref" (the party's name, such as "W-01")`);
      const who = `${list === 'waiting' ? 'waiting request' : 'registration'} ${String(p['ref'])}`;
      if (typeof p['partySize'] !== 'number') bad(who, 'partySize', 'a whole number of people', p['partySize']);
      if (list === 'waiting') {
        if (typeof p['received'] !== 'string') bad(who, 'received', 'a time such as "08:50"', p['received']);
        if (p['sequence'] !== undefined && !Number.isInteger(p['sequence']))
          bad(who, 'sequence', 'a whole number', p['sequence']);
      }
    }
  }
  const rows = w['transactions'];
  if (!Array.isArray(rows)) return;
  for (const [i, t] of rows.entries()) {
    if (!isObject(t)) return fail(`row ${i + 1} is not an object`);
    if (!isName(t['op'])) fail(`row ${i + 1} has no "op" (its operation id, such as "T-01")`);
    const row = `row ${String(t['op'])}`;
    if (typeof t['time'] !== 'string') bad(row, 'time', 'a time such as "09:05" or "09:05:30"', t['time']);
    if (!Array.isArray(t['steps']) || t['steps'].length === 0)
      fail(`${row}: "steps" must be a list of one or more steps, such as [{"type": "review"}]`);
    for (const [j, s] of (t['steps'] as unknown[]).entries()) refuseMalformedStep(`${row}, step ${j + 1}`, s);
    const e = t['expect'];
    if (!isObject(e))
      return fail(
        `${row}: "expect" is missing; give the row's figures: {"confirmed": …, "held": …, "available": …, "queue": […]}`,
      );
    for (const k of ['confirmed', 'held', 'available'] as const)
      if (!Number.isInteger(e[k])) bad(row, `expect.${k}`, 'a whole number of seats', e[k]);
    if (!Array.isArray(e['queue']) || !e['queue'].every(isName))
      bad(row, 'expect.queue', "a list of the waiting parties' names ([] when nobody waits)", e['queue']);
  }
}

const STEP_TYPES = ['review', 'cancel', 'promote', 'accept', 'expire', 'join', 'retry'];

function refuseMalformedStep(where: string, s: unknown): void {
  if (!isObject(s)) return fail(`${where} is not an object such as {"type": "review"}`);
  const type = s['type'];
  if (typeof type !== 'string' || !STEP_TYPES.includes(type)) bad(where, 'type', `one of ${STEP_TYPES.join(', ')}`, type);
  if (['cancel', 'accept', 'expire', 'join'].includes(type as string) && !isName(s['ref']))
    bad(`${where} (${String(type)})`, 'ref', 'the name of a party', s['ref']);
  if (type === 'promote' && s['expect'] !== null && !isName(s['expect']))
    bad(`${where} (promote)`, 'expect', 'the name of the party that should receive the hold, or null for nobody', s['expect']);
  if (type === 'join') {
    // A join may try a size the app must refuse (0, −1, 1.5) with "expect": "refused": only a number is required.
    if (typeof s['partySize'] !== 'number') bad(`${where} (join)`, 'partySize', 'a number of people', s['partySize']);
    if (!Number.isInteger(s['sequence'])) bad(`${where} (join)`, 'sequence', 'a whole number', s['sequence']);
  }
  if (type === 'retry' && !isName(s['op'])) bad(`${where} (retry)`, 'op', 'the id of the earlier row to send again', s['op']);
}

/**
 * Every step names a party the worksheet has introduced by then (a registration, a waiting request or
 * an earlier join). A typo ("cancel Z") otherwise ran, and was blamed rows later on whatever it broke.
 */
export function refuseUnknownReferences(w: {
  reservations: Array<{ ref: string }>;
  waiting: Array<{ ref: string }>;
  transactions: Array<{ op: string; steps: Array<{ type: string; ref?: string; expect?: unknown }> }>;
}): void {
  const known = new Set([...w.reservations, ...w.waiting].map((p) => p.ref));
  for (const t of w.transactions)
    for (const [j, s] of t.steps.entries()) {
      const named = s.type === 'promote' ? s.expect : s.type === 'join' ? undefined : s.ref;
      if (typeof named === 'string' && !known.has(named))
        fail(
          `row ${t.op}, step ${j + 1} (${s.type}): "${named}" is not a registration, a waiting request or a party joined in an earlier step`,
        );
      if (s.type === 'join' && s.ref !== undefined) known.add(s.ref);
    }
}

const STEP_KEYS: Record<string, string[]> = {
  review: ['type'],
  cancel: ['type', 'ref'],
  promote: ['type', 'expect'],
  accept: ['type', 'ref', 'expect'],
  expire: ['type', 'ref'],
  join: ['type', 'ref', 'partySize', 'sequence', 'expect'],
  retry: ['type', 'op'],
};
const TOP_KEYS = [
  'name',
  'timeZone',
  'date',
  'start',
  'capacity',
  'policy',
  'decisions',
  'reservations',
  'waiting',
  'transactions',
];

/**
 * Every key of a worksheet is one the ledger reads: a mistyped one ("expct": "refused" on an accept,
 * "seq" for a waiting request's sequence) was ignored, and the rule it meant silently dropped (the
 * accept then expected to succeed). Refused here naming the key, where it is and the keys taken
 * there, before anything else is read.
 */
export function refuseUnknownKeys(w: Record<string, unknown>): void {
  const only = (where: string, o: unknown, keys: readonly string[]): void => {
    if (!isObject(o)) return;
    const stray = Object.keys(o).find((k) => !keys.includes(k));
    if (stray !== undefined) fail(`${where}: unknown key ${JSON.stringify(stray)}; it takes ${keys.join(', ')}`);
  };
  only('the worksheet', w, TOP_KEYS);
  only('"policy"', w['policy'], ['order', 'holdSeconds', 'onOfferExpired']);
  for (const list of ['reservations', 'waiting'] as const) {
    const parties = w[list];
    if (!Array.isArray(parties)) continue;
    for (const [i, p] of (parties as unknown[]).entries()) {
      const ref = isObject(p) && isName(p['ref']) ? p['ref'] : `entry ${i + 1}`;
      const who = `${list === 'waiting' ? 'waiting request' : 'registration'} ${ref}`;
      only(who, p, list === 'waiting' ? ['ref', 'partySize', 'received', 'sequence'] : ['ref', 'partySize']);
    }
  }
  const rows = w['transactions'];
  if (!Array.isArray(rows)) return;
  for (const [i, t] of (rows as unknown[]).entries()) {
    if (!isObject(t)) continue;
    const row = `row ${isName(t['op']) ? t['op'] : i + 1}`;
    only(row, t, ['op', 'time', 'action', 'steps', 'expect']);
    only(`${row}, "expect"`, t['expect'], ['confirmed', 'held', 'available', 'queue']);
    if (!Array.isArray(t['steps'])) continue;
    for (const [j, step] of (t['steps'] as unknown[]).entries()) {
      const type = isObject(step) ? step['type'] : undefined;
      const keys = typeof type === 'string' ? STEP_KEYS[type] : undefined;
      if (keys) only(`${row}, step ${j + 1} (${String(type)})`, step, keys);
    }
  }
}

/**
 * A time written with a one-digit hour ("9:05", "9:05:30") is unambiguous: it becomes "09:05". Any
 * other shape is left for the checks that refuse it in words.
 */
export function padHour<T>(time: T): T | string {
  return typeof time === 'string' && /^\d:\d{2}(:\d{2})?$/.test(time) ? `0${time}` : time;
}

/** A worksheet refused: one line, "worksheet: …", naming where and what (no stack for an organizer). */
export const fail = (what: string): never => {
  throw new Error(`worksheet: ${what}`);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const shown = (v: unknown): string => JSON.stringify(v) ?? String(v);
/** One line naming where, the field and what it takes: "is missing" or "must be …, not 3.5". */
const bad = (where: string, field: string, what: string, v: unknown): never =>
  fail(
    v === undefined
      ? `${where}: "${field}" is missing; it must be ${what}`
      : `${where}: "${field}" must be ${what}, not ${shown(v)}`,
  );
