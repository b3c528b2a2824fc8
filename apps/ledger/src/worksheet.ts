import { DateTime } from 'luxon';
import { modelLedger } from './worksheet-model.js';
import { fail, padHour, refuseMalformedFields, refuseUnknownKeys, refuseUnknownReferences } from './worksheet-shape.js';

/** A worksheet: the policy, the starting position and the transaction rows with what each should leave. */
export interface Worksheet {
  name: string;
  timeZone: string;
  /** The venue-local date the transactions happen on, YYYY-MM-DD. */
  date: string;
  /** Venue-local HH:mm[:ss] the sandbox clock starts at (before the first request). */
  start: string;
  capacity: number;
  policy: { order: 'strict' | 'host-pick'; holdSeconds: number; onOfferExpired: 'keep-place' | 'leave-queue' };
  /** Worksheet section 1's decisions that are not seat arithmetic: recorded with the venue, printed in the report. */
  decisions?: WorksheetDecisions;
  reservations: Array<{ ref: string; partySize: number }>;
  waiting: Array<{ ref: string; partySize: number; received: string; sequence: number }>;
  transactions: Transaction[];
}

/** Free text, all optional (the venue API's `decisions` field takes the same keys). */
export interface WorksheetDecisions {
  whoMayCancel?: string;
  retries?: string;
  discrepancyOwner?: string;
  ruleChanges?: string;
  reviewer?: string;
  reviewDate?: string;
}

export const DECISION_KEYS = ['whoMayCancel', 'retries', 'discrepancyOwner', 'ruleChanges', 'reviewer', 'reviewDate'] as const;

export type Step =
  | { type: 'review' }
  | { type: 'cancel'; ref: string }
  | { type: 'promote'; expect: string | null }
  /** `expect`: `accepted` (the default) or `refused`, for a group that is too late to accept. */
  | { type: 'accept'; ref: string; expect?: 'accepted' | 'refused' }
  | { type: 'expire'; ref: string }
  /** `expect`: `joined` (the default) or `refused`, for a group larger than the pool. */
  | { type: 'join'; ref: string; partySize: number; sequence: number; expect?: 'joined' | 'refused' }
  | { type: 'retry'; op: string };

export interface Transaction {
  op: string;
  time: string;
  action: string;
  steps: Step[];
  expect: { confirmed: number; held: number; available: number; queue: string[] };
}

/** Checks the shape enough to give a clear line instead of a confusing failure mid-run. */
export function parseWorksheet(json: unknown): Worksheet {
  const w = json as Worksheet;
  if (typeof w !== 'object' || w === null || Array.isArray(w)) fail('not a JSON object');
  refuseUnknownKeys(w as unknown as Record<string, unknown>);
  for (const k of ['name', 'timeZone', 'date', 'start'] as const)
    if (typeof w[k] !== 'string') fail(w[k] === undefined ? `"${k}" is missing` : `"${k}" must be text`);
  if (!Number.isInteger(w.capacity) || w.capacity < 1)
    fail(`"capacity" must be a positive whole number of seats, not ${JSON.stringify(w.capacity) ?? 'missing'}`);
  if (typeof w.policy !== 'object') fail('"policy" is missing');
  if (!Array.isArray(w.reservations) || !Array.isArray(w.waiting) || !Array.isArray(w.transactions))
    fail('"reservations", "waiting" and "transactions" must be lists');
  refuseMalformedFields(w as unknown as Record<string, unknown>);
  // "9:05" is 09:05 (one-digit hours), everywhere a time is read from here on.
  w.start = padHour(w.start);
  for (const q of w.waiting) q.received = padHour(q.received);
  for (const t of w.transactions) t.time = padHour(t.time);
  if (w.decisions !== undefined) {
    if (typeof w.decisions !== 'object' || w.decisions === null || Array.isArray(w.decisions))
      fail('"decisions" must be an object');
    for (const [k, v] of Object.entries(w.decisions)) {
      if (!(DECISION_KEYS as readonly string[]).includes(k)) fail(`"decisions" takes ${DECISION_KEYS.join(', ')}; not "${k}"`);
      if (typeof v !== 'string') fail(`"decisions.${k}" must be text`);
    }
  }
  const starting = [...w.reservations, ...w.waiting].map((p) => p.ref);
  const twice = starting.find((ref, i) => starting.indexOf(ref) !== i);
  if (twice !== undefined) fail(`"${twice}" names two starting parties; each reference must name one`);
  const hold = (w.policy as { holdSeconds?: unknown }).holdSeconds;
  if (typeof hold !== 'number' || !Number.isInteger(hold) || hold < 1)
    fail(`"policy.holdSeconds" must be a positive whole number of seconds (1800 is thirty minutes), not ${JSON.stringify(hold)}`);
  refuseImpossibleStart(w);
  for (const t of w.transactions) {
    if (typeof t.op !== 'string' || typeof t.time !== 'string' || !Array.isArray(t.steps) || typeof t.expect !== 'object')
      fail(`transaction ${JSON.stringify(t).slice(0, 60)} is incomplete`);
    for (const s of t.steps) {
      if (s.type === 'accept' && s.expect !== undefined && s.expect !== 'accepted' && s.expect !== 'refused')
        fail(`row ${t.op}: an accept step's "expect" is "accepted" or "refused", not ${JSON.stringify(s.expect)}`);
      if (s.type === 'join' && s.expect !== undefined && s.expect !== 'joined' && s.expect !== 'refused')
        fail(`row ${t.op}: a join step's "expect" is "joined" or "refused", not ${JSON.stringify(s.expect)}`);
    }
  }
  refuseSharedOperationIds(w);
  refuseUnknownReferences(w);
  refuseTimesOutOfOrder(w);
  refuseAmbiguousJoins(w);
  return w;
}

/**
 * The starting position must be one the policy can hold: each party a whole number from 1 to the
 * capacity (a larger waiting group would block a strict queue for good in the model, and the app
 * refuses it at set-up), and the registrations within the capacity. Refused here, naming the party
 * and the figures, before any venue is set up.
 */
function refuseImpossibleStart(w: Worksheet): void {
  for (const p of [...w.reservations, ...w.waiting]) {
    if (!Number.isInteger(p.partySize) || p.partySize < 1 || p.partySize > w.capacity)
      fail(
        `${p.ref}'s party size ${String(p.partySize)} is not a whole number from 1 to ${w.capacity} (the capacity)` +
          (p.partySize > w.capacity ? '; groups never split, so a larger group can never be offered seats' : ''),
      );
  }
  // The app numbers waiting requests 1, 2, 3… as they are saved, and the ledger saves them in the
  // listed order: a list out of sequence order stopped the set-up with "W-B got queue sequence 1".
  for (const [i, q] of w.waiting.entries())
    if (q.sequence !== undefined && q.sequence !== i + 1)
      fail(
        `${q.ref} is listed ${ordinal(i + 1)} among the waiting requests with queue sequence ${String(q.sequence)}: ` +
          'the app numbers requests 1, 2, 3… in the order they are saved; list them in sequence order, numbered from 1',
      );
  const taken = w.reservations.reduce((n, r) => n + r.partySize, 0);
  if (taken > w.capacity)
    fail(
      `the starting registrations take ${taken} seats (${w.reservations.map((r) => `${r.ref} ${r.partySize}`).join(' + ')}); the capacity is ${w.capacity}`,
    );
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/**
 * Whether this wall time comes round again at another instant: on the night the clocks go back, the
 * hour before the change is lived twice (Luxon picks one of the two). Checked with the offsets in
 * force a day either side, so a change of any size (Lord Howe's half hour too) is found.
 */
export function happensTwice(dt: DateTime): boolean {
  const wall = dt.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const offsets = new Set([dt.minus({ days: 1 }).offset, dt.plus({ days: 1 }).offset]);
  const wallAsUtc = DateTime.fromISO(wall, { zone: 'utc' }).toMillis();
  for (const offset of offsets) {
    const other = DateTime.fromMillis(wallAsUtc - offset * 60_000, { zone: dt.zone });
    if (other.toMillis() !== dt.toMillis() && other.toFormat("yyyy-MM-dd'T'HH:mm:ss") === wall) return true;
  }
  return false;
}

/** An Idempotency-Key carries printable ASCII only: any other character is sent as `_`. */
export const keySafe = (text: string): string => text.replace(/[^\x21-\x7e]/g, '_');

/**
 * The operation a row's step `index` is sent as: the row's own id for the first, then `T-01#2`,
 * `T-01#3`, … (each step is a request of its own, under a key of its own; LedgerSession.stepKey).
 */
export const stepOperation = (op: string, index: number): string => (index === 0 ? op : `${op}#${index + 1}`);

/**
 * A row's operation id is its Idempotency-Key (the ledger sends it as the key, with any character a
 * key cannot carry replaced): two rows with one id sent the second row under the first one's key,
 * which the app refuses, and the report blamed the app. A retry names a row that ran before it.
 */
function refuseSharedOperationIds(w: Worksheet): void {
  const seen = new Map<string, number>();
  for (const [i, t] of w.transactions.entries()) {
    const first = seen.get(keySafe(t.op));
    if (first !== undefined)
      fail(
        `rows ${first + 1} and ${i + 1} are both named ${w.transactions[first]?.op ?? t.op}: each row needs an operation id of its own (it is the row’s Idempotency-Key); to send a row again, add a row with {"type": "retry", "op": "${w.transactions[first]?.op ?? t.op}"}`,
      );
    for (const step of t.steps)
      if (step.type === 'retry' && !w.transactions.slice(0, i).some((x) => x.op === step.op))
        fail(
          `row ${t.op} retries ${String(step.op)}, which is not an earlier row: a retry sends an operation that already ran again`,
        );
    seen.set(keySafe(t.op), i);
  }
  // A row's later steps go under its id followed by #2, #3, … (stepOperation): a row named
  // T-01#2 would share its key with T-01's second step, and one of the two would be refused as a
  // reused key mid-replay.
  const owners = new Map<string, { row: number; step: number }>();
  for (const [i, t] of w.transactions.entries())
    for (const j of t.steps.keys()) {
      const key = keySafe(stepOperation(t.op, j));
      const other = owners.get(key);
      if (other && other.row !== i) {
        const [named, stepped] = other.step === 0 ? [other, { row: i, step: j }] : [{ row: i, step: j }, other];
        fail(
          `row ${named.row + 1} is named ${w.transactions[named.row]?.op}, the key row ${stepped.row + 1} (${w.transactions[stepped.row]?.op}) sends its step ${stepped.step + 1} under: rename row ${named.row + 1} (a row’s later steps go as its id followed by #2, #3, …)`,
        );
      }
      owners.set(key, { row: i, step: j });
    }
}

/**
 * Every time of a worksheet is a wall time on its one `date`, and the sandbox clock only moves
 * forward: the start, the waiting requests oldest first, then the rows in order. A time that goes
 * back (a workshop running past midnight, a waiting list out of order) or that the clocks skip on a
 * daylight-saving day was found only mid-replay, as a refused clock move in UTC naming no row (or
 * run an hour later than written); it is refused here, naming the row, before any venue is set up.
 */
export function refuseTimesOutOfOrder(w: Worksheet): void {
  const instant = (time: unknown, what: string): number => {
    const wall = typeof time === 'string' && /^\d{2}:\d{2}$/.test(time) ? `${time}:00` : time;
    const dt =
      typeof wall === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(wall)
        ? DateTime.fromISO(`${w.date}T${wall}`, { zone: w.timeZone })
        : null;
    if (!dt?.isValid)
      return fail(`${what}: ${JSON.stringify(time)} is not a time on ${w.date} in ${w.timeZone} (HH:mm or HH:mm:ss)`);
    if (dt.toFormat('HH:mm:ss') !== wall)
      fail(`${what}: ${String(time)} does not happen on ${w.date} in ${w.timeZone}: the clocks skip it (daylight saving time)`);
    if (happensTwice(dt))
      fail(
        `${what}: ${String(time)} happens twice on ${w.date} in ${w.timeZone}: the clocks go back (daylight saving time), so the worksheet cannot say which; use a time outside that hour`,
      );
    return dt.toMillis();
  };
  let last = { at: instant(w.start, '"start"'), what: `the start (${w.start})` };
  const notBefore = (at: number, what: string, time: string, advice: string): void => {
    if (at < last.at)
      fail(`${what}: ${time} is earlier than ${last.what}; every time is on ${w.date}, the worksheet's "date", so ${advice}`);
  };
  for (const q of w.waiting) {
    const at = instant(q.received, `${q.ref}'s "received"`);
    notBefore(at, `${q.ref} was received`, q.received, 'list the waiting requests oldest first, after the start');
    last = { at, what: `${q.ref}'s received time (${q.received})` };
  }
  for (const t of w.transactions) {
    const at = instant(t.time, `row ${t.op}`);
    notBefore(at, `row ${t.op}`, t.time, 'the rows must run in time order (a worksheet covers one day, up to midnight)');
    last = { at, what: `row ${t.op} (${t.time})` };
  }
}

/**
 * A join under a name that still means an active party would make every later step under that name
 * a guess (which of the two?): the policy model refuses it, and so does the worksheet, before any
 * venue is set up. A rejoin after the name's party expired or was cancelled is fine.
 */
export function refuseAmbiguousJoins(sheet: Worksheet): void {
  const { expectations } = modelLedger(sheet);
  for (const [i, e] of expectations.entries()) {
    const refused = e.outcomes.find((o) => o.ambiguous);
    if (refused) fail(`row ${sheet.transactions[i]?.op ?? e.op}: ${refused.text}`);
  }
}
