import { nobodyWaiting } from '../seat-words.js';

/**
 * The workshop worksheet's arithmetic as a pure function of the policy: what the seat pool should
 * show after each step, computed on paper terms (people, not rows) with no database, no clock and no
 * HTTP. The ledger checks the organizer's own figures and the running app against it; the
 * PoolAllocator and the offer lifecycle are what it describes, so it lives beside them.
 *
 * Times are instants in milliseconds; converting a worksheet's venue-local "HH:mm" times is the caller's job.
 */

export type SeatOrder = 'strict' | 'host-pick';
export type OnHoldExpired = 'keep-place' | 'leave-queue';

export interface SeatPolicy {
  capacity: number;
  /** strict: only the oldest waiting group, never skipped; host-pick (first fit): the oldest group that fits. */
  order: SeatOrder;
  holdSeconds: number;
  /** leave-queue: an expired group leaves the active queue; keep-place: it waits again in its original place. */
  onOfferExpired: OnHoldExpired;
}

export type PartyState = 'waiting' | 'held' | 'confirmed' | 'cancelled' | 'expired';

export interface ModelParty {
  ref: string;
  partySize: number;
  state: PartyState;
  /** Registrations (A, B, C) are confirmed from the start and never queue. */
  registration: boolean;
  received: number | null;
  sequence: number | null;
  holdExpiresAt: number | null;
  /** The last hold's outcome, kept when keep-place sends the group back to waiting. */
  lastHold: 'held' | 'accepted' | 'expired' | 'cancelled' | null;
  /** How many times this party's seats were released (a hold expiring or a cancellation). */
  releases: number;
}

export interface ModelState {
  policy: SeatPolicy;
  now: number;
  parties: ModelParty[];
  lastSequence: number;
  /** Operations already applied: a retry of one of them is recognised and changes nothing. */
  done: string[];
}

/** What a row expects of an acceptance: `refused` records a group that is too late (no open hold). */
export type AcceptOutcome = 'accepted' | 'refused';

/** What a row expects of a join: `refused` records a group the policy turns away (a size outside 1 to the capacity). */
export type JoinOutcome = 'joined' | 'refused';

export type ModelStep =
  | { type: 'review' }
  | { type: 'promote'; expect?: string | null }
  | { type: 'accept'; ref: string; expect?: AcceptOutcome }
  | { type: 'cancel'; ref: string }
  | { type: 'expire'; ref: string }
  /** `expect`: `joined` (the default) or `refused`, for a group the policy turns away (larger than the pool). */
  | { type: 'join'; ref: string; partySize: number; sequence?: number; expect?: JoinOutcome }
  | { type: 'retry'; op: string };

export interface ModelCounts {
  capacity: number;
  confirmed: number;
  held: number;
  available: number;
}

/** What one step did, in words, and whether it did what the row says it does. */
export interface StepOutcome {
  ok: boolean;
  text: string;
  /** For promotions: who received the hold (null: nobody) and until when. */
  held?: { ref: string | null; expiresAt: number | null; reason: string | null };
  /** A join refused because its name still means an active party: which one a later step meant would be a guess. */
  ambiguous?: boolean;
}

export interface ModelStart {
  policy: SeatPolicy;
  /** Venue clock before anything happens. */
  start: number;
  registrations: Array<{ ref: string; partySize: number }>;
  waiting: Array<{ ref: string; partySize: number; received: number; sequence?: number }>;
}

export interface ModelRow {
  op: string;
  at: number;
  steps: ModelStep[];
}

export interface RowExpectation {
  op: string;
  counts: ModelCounts;
  queue: string[];
  outcomes: StepOutcome[];
  /** Holds that lapsed when the clock reached the row's time, before its steps. */
  expiredOnArrival: string[];
}

/** Valid party sizes: whole numbers from 1 through the capacity. Groups never split. */
export function validPartySize(policy: Pick<SeatPolicy, 'capacity'>, size: unknown): boolean {
  return typeof size === 'number' && Number.isInteger(size) && size >= 1 && size <= policy.capacity;
}

export function countsOf(state: ModelState): ModelCounts {
  const sum = (s: PartyState): number => state.parties.filter((p) => p.state === s).reduce((n, p) => n + p.partySize, 0);
  const confirmed = sum('confirmed');
  const held = sum('held');
  return { capacity: state.policy.capacity, confirmed, held, available: state.policy.capacity - confirmed - held };
}

/**
 * The party a worksheet reference means: the newest with that name. An expired or cancelled group
 * may rejoin under its old name with a new position, and later steps are about the new request.
 */
export function partyByRef(state: ModelState, ref: string): ModelParty | undefined {
  return state.parties.findLast((p) => p.ref === ref);
}

const ACTIVE: PartyState[] = ['waiting', 'held', 'confirmed'];

/** The active waiting queue: original received time, then the immutable queue sequence. */
export function waitingQueue(state: ModelState): ModelParty[] {
  return state.parties
    .filter((p) => p.state === 'waiting')
    .sort((a, b) => (a.received ?? 0) - (b.received ?? 0) || (a.sequence ?? 0) - (b.sequence ?? 0));
}

export function initialState(start: ModelStart): ModelState {
  const state: ModelState = { policy: start.policy, now: start.start, parties: [], lastSequence: 0, done: [] };
  for (const r of start.registrations) {
    state.parties.push(party(r.ref, r.partySize, 'confirmed', true, null, null));
  }
  for (const w of start.waiting) {
    const sequence = w.sequence ?? state.lastSequence + 1;
    state.lastSequence = Math.max(state.lastSequence, sequence);
    state.parties.push(party(w.ref, w.partySize, 'waiting', false, w.received, sequence));
  }
  return state;
}

function party(
  ref: string,
  partySize: number,
  state: PartyState,
  registration: boolean,
  received: number | null,
  sequence: number | null,
): ModelParty {
  return { ref, partySize, state, registration, received, sequence, holdExpiresAt: null, lastHold: null, releases: 0 };
}

const clone = (s: ModelState): ModelState => structuredClone(s);

/**
 * Moves the clock to `at` and resolves every hold due by then (at or after its expiry it is too
 * late): seats released once, the group out of the queue or back in its place. Returns who lapsed.
 */
export function advance(state: ModelState, at: number): { state: ModelState; expired: string[] } {
  const next = clone(state);
  next.now = Math.max(next.now, at);
  const expired: string[] = [];
  for (const p of next.parties) {
    if (p.state === 'held' && p.holdExpiresAt !== null && next.now >= p.holdExpiresAt) {
      expireHold(next, p);
      expired.push(p.ref);
    }
  }
  return { state: next, expired };
}

function expireHold(state: ModelState, p: ModelParty): void {
  p.state = state.policy.onOfferExpired === 'keep-place' ? 'waiting' : 'expired';
  p.lastHold = 'expired';
  p.releases += 1;
}

/** Who the next promotion would hold seats for under the policy, or why nobody. */
export function nextPromotion(state: ModelState): { party: ModelParty | null; reason: string | null } {
  const queue = waitingQueue(state);
  const { available } = countsOf(state);
  const head = queue[0];
  if (!head) return { party: null, reason: nobodyWaiting(state.parties.filter((p) => p.state === 'held').length) };
  if (state.policy.order === 'strict') {
    return head.partySize <= available
      ? { party: head, reason: null }
      : { party: null, reason: `${available} available; the oldest group (${head.ref}) needs ${head.partySize}.` };
  }
  const fit = queue.find((p) => p.partySize <= available);
  return fit ? { party: fit, reason: null } : { party: null, reason: `${available} available; no waiting group fits.` };
}

/** One step at the state's current time (expired holds are resolved first, as the app does). */
export function applyStep(input: ModelState, step: ModelStep): { state: ModelState; outcome: StepOutcome } {
  const state = advance(input, input.now).state;
  const find = (ref: string): ModelParty | undefined => partyByRef(state, ref);
  switch (step.type) {
    case 'review':
    case 'promote': {
      const { party: p, reason } = nextPromotion(state);
      if (p) {
        p.state = 'held';
        p.holdExpiresAt = state.now + state.policy.holdSeconds * 1000;
        p.lastHold = 'held';
      }
      const held = { ref: p?.ref ?? null, expiresAt: p?.holdExpiresAt ?? null, reason };
      const text = p ? `hold ${p.partySize} for ${p.ref}` : `no promotion: ${reason}`;
      if (step.type === 'review') return { state, outcome: { ok: true, text, held } };
      const want = step.expect === undefined ? held.ref : step.expect;
      return { state, outcome: { ok: want === held.ref, text, held } };
    }
    case 'accept': {
      const p = find(step.ref);
      const refusedExpected = step.expect === 'refused';
      // Acceptance must be earlier than the expiry; a lapsed hold was already resolved above.
      if (p?.state !== 'held') {
        const text = `${step.ref} has no open hold to accept${refusedExpected ? '; refused, as the row expects' : ''}`;
        return { state, outcome: { ok: refusedExpected, text } };
      }
      // In time, the group confirms whatever the row expected: the app would confirm it too.
      p.state = 'confirmed';
      p.lastHold = 'accepted';
      const text = `${p.ref} confirms ${p.partySize}${refusedExpected ? '; the row expects a refusal' : ''}`;
      return { state, outcome: { ok: !refusedExpected, text } };
    }
    case 'cancel': {
      const p = find(step.ref);
      if (!p) return { state, outcome: { ok: false, text: `unknown reference ${step.ref}` } };
      if (p.state === 'waiting') {
        p.state = 'cancelled';
        return { state, outcome: { ok: true, text: `${p.ref} leaves the queue, releasing nothing` } };
      }
      if (p.state === 'held' || p.state === 'confirmed') {
        if (p.state === 'held') p.lastHold = 'cancelled';
        p.state = 'cancelled';
        p.releases += 1;
        return { state, outcome: { ok: true, text: `${p.ref} releases ${p.partySize}` } };
      }
      // Already cancelled or expired: the same state, nothing released again.
      return { state, outcome: { ok: true, text: `${p.ref} is already ${p.state}; nothing changes` } };
    }
    case 'expire': {
      const p = find(step.ref);
      const ok = p?.lastHold === 'expired';
      return { state, outcome: { ok, text: ok ? `${step.ref}'s hold has expired` : `${step.ref}'s hold has not expired` } };
    }
    case 'join': {
      const inUse = find(step.ref);
      if (inUse && ACTIVE.includes(inUse.state)) {
        const text = `${step.ref} is still ${inUse.state}: a join under a name in use is ambiguous. Rejoin after it expires or is cancelled, or use another name`;
        return { state, outcome: { ok: false, ambiguous: true, text } };
      }
      const refusedExpected = step.expect === 'refused';
      if (!validPartySize(state.policy, step.partySize)) {
        const text = `party size ${step.partySize} refused${refusedExpected ? ', as the row expects' : ''}`;
        return { state, outcome: { ok: refusedExpected, text } };
      }
      const sequence = state.lastSequence + 1;
      state.lastSequence = sequence;
      state.parties.push(party(step.ref, step.partySize, 'waiting', false, state.now, sequence));
      const ok = !refusedExpected && (step.sequence === undefined || step.sequence === sequence);
      const text = `${step.ref} joins with sequence ${sequence}${refusedExpected ? '; the row expects a refusal' : ''}`;
      return { state, outcome: { ok, text } };
    }
    case 'retry': {
      // A retry carries the operation's stable identifier: recognised, it changes nothing.
      const ok = state.done.includes(step.op);
      return { state, outcome: { ok, text: ok ? `retry of ${step.op} recognised; nothing changes` : `${step.op} has not run` } };
    }
  }
}

/** A worksheet row: clock to its time (lapsed holds resolved), its steps in order, then the counts. */
export function applyRow(input: ModelState, row: ModelRow): { state: ModelState; expectation: RowExpectation } {
  const moved = advance(input, row.at);
  let state = moved.state;
  const outcomes: StepOutcome[] = [];
  for (const step of row.steps) {
    const r = applyStep(state, step);
    state = r.state;
    outcomes.push(r.outcome);
  }
  state.done.push(row.op);
  return {
    state,
    expectation: {
      op: row.op,
      counts: countsOf(state),
      queue: waitingQueue(state).map((p) => p.ref),
      outcomes,
      expiredOnArrival: moved.expired,
    },
  };
}

/** The expected counts and queue after every row, and the state after each (for boundary starting points). */
export function replay(start: ModelStart, rows: ModelRow[]): { expectations: RowExpectation[]; states: ModelState[] } {
  let state = initialState(start);
  const expectations: RowExpectation[] = [];
  const states: ModelState[] = [];
  for (const row of rows) {
    const r = applyRow(state, row);
    state = r.state;
    expectations.push(r.expectation);
    states.push(state);
  }
  return { expectations, states };
}
