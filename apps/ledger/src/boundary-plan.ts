import {
  advance,
  applyStep,
  countsOf,
  initialState,
  nextPromotion,
  partyByRef,
  waitingQueue,
  type ModelCounts,
  type ModelState,
} from '@hostboard/allocator';
import { modelLedger, modelRows, modelStart } from './worksheet-model.js';
import type { Worksheet } from './worksheet.js';

/**
 * Where each of section 5's reset cases starts in this worksheet, found with the policy model: its
 * first review, first cancellation, first hold to expire and that hold's exact expiry, last-seat
 * moment and full state. A starting point is a row index (-1: the starting position, before any row).
 */
export interface BoundaryPlan {
  sheet: Worksheet;
  /** The model's state after each row. */
  states: ModelState[];
  start: ModelState;
  /** The oldest waiting group cannot fit (the first review when it is such a state). */
  blocked?: number;
  /** At least two groups waiting (the first review when it is such a state): a withdrawal moves the next up. */
  withdrawal?: number;
  /** The first cancellation row, or the state before the first hold when no cancellation frees seats. */
  beforeFirstHold?: number;
  /** The first hold to expire (or, with none, the first hold): whose, when, and the last row before it. */
  expiry?: { ref: string; expiresAt: number; before: number; expiredAfter?: number };
  /** The last moment one promotion takes the last seats while another group still waits. */
  lastSeat?: number;
  /** Nothing available and a group still waiting. */
  full?: number;
  /** The first cancellation that released seats (a registration or a held / confirmed group). */
  cancellation?: { index: number; step: number; ref: string };
  /** A completed step with a live hold, for save-and-return (else the last row). */
  saveAt: number;
  /**
   * The first row that holds seats after another step of the same row made room (cancel B, then
   * promote): a reset case starts between rows, so a starting point inside such a row is not seen.
   */
  promotesMidRow?: string;
  /** The first such row where that promotion takes the last seats while another group that fits waits. */
  lastSeatMidRow?: string;
}

export const stateAt = (plan: BoundaryPlan, index: number): ModelState =>
  (index < 0 ? plan.start : plan.states[index]) ?? plan.start;

export function planBoundaries(sheet: Worksheet): BoundaryPlan {
  const { states, expectations } = modelLedger(sheet);
  const start = initialState(modelStart(sheet));
  const rows = modelRows(sheet);
  const indices = states.map((_, i) => i);
  // Where a reset case may start: the starting position too (-1), not only after a row. A worksheet
  // whose first row already promotes has its two waiting groups, or its last-seat moment, only there.
  const points = [-1, ...indices];
  const isReview = (i: number): boolean => sheet.transactions[i]?.steps.some((s) => s.type === 'review') ?? false;
  const preferReview = (ok: (i: number) => boolean): number | undefined => {
    const firstReview = indices.find(isReview);
    if (firstReview !== undefined && ok(firstReview)) return firstReview;
    return points.find(ok);
  };
  const s = (i: number): ModelState => stateAt({ states, start } as BoundaryPlan, i);

  const headBlocked = (i: number): boolean => {
    const head = waitingQueue(s(i))[0];
    return head !== undefined && head.partySize > countsOf(s(i)).available;
  };
  const blocked = preferReview(headBlocked);
  const withdrawal = preferReview((i) => waitingQueue(s(i)).length >= 2);

  // The first cancellation after which a promotion holds seats; else the state just before the first hold.
  const cancelRows = indices.filter((i) => sheet.transactions[i]?.steps.some((x) => x.type === 'cancel'));
  let beforeFirstHold = cancelRows.find((i) => nextPromotion(s(i)).party !== null);
  if (beforeFirstHold === undefined) {
    const firstHold = indices.find((i) => s(i).parties.some((p) => p.state === 'held'));
    if (firstHold !== undefined && nextPromotion(s(firstHold - 1)).party !== null) beforeFirstHold = firstHold - 1;
  }

  // Holds in the order they were created, each with its expiry; those that lapse in the ledger first.
  const holds: Array<{ ref: string; expiresAt: number; createdAt: number; expiredAfter?: number }> = [];
  for (const i of indices) {
    for (const p of s(i).parties) {
      if (p.holdExpiresAt === null) continue;
      let h = holds.find((x) => x.ref === p.ref && x.expiresAt === p.holdExpiresAt);
      if (!h) holds.push((h = { ref: p.ref, expiresAt: p.holdExpiresAt, createdAt: i }));
      if (p.lastHold === 'expired' && h.expiredAfter === undefined) h.expiredAfter = i;
    }
  }
  const lapsing = holds.filter((h) => h.expiredAfter !== undefined).sort((a, b) => a.expiresAt - b.expiresAt);
  const chosen = lapsing[0] ?? holds[0];
  let expiry: BoundaryPlan['expiry'];
  if (chosen) {
    // The last row before the earliest run (one second before the expiry) with the hold still open.
    const open = (i: number): boolean =>
      (rows[i]?.at ?? Infinity) <= chosen.expiresAt - 1000 &&
      s(i).parties.some((p) => p.ref === chosen.ref && p.state === 'held' && p.holdExpiresAt === chosen.expiresAt);
    const before = [...indices].reverse().find(open);
    if (before !== undefined)
      expiry = { ref: chosen.ref, expiresAt: chosen.expiresAt, before, expiredAfter: chosen.expiredAfter };
  }

  // Last seat: one group takes what is left, and another group that would also have fitted still waits.
  const lastSeatIn = (st: ModelState): { tight: boolean } | null => {
    const { party } = nextPromotion(st);
    if (!party) return null;
    const available = countsOf(st).available;
    const after = applyStep(st, { type: 'promote' }).state;
    const rivals = waitingQueue(after).filter((p) => p.partySize <= available);
    if (rivals.length === 0 || nextPromotion(after).party !== null) return null;
    return { tight: countsOf(after).available === 0 };
  };
  const lastSeatAt = (i: number): { tight: boolean } | null => lastSeatIn(s(i));
  const seatRows = points.filter((i) => lastSeatAt(i) !== null);
  const lastSeat = [...seatRows].reverse().find((i) => lastSeatAt(i)?.tight) ?? seatRows.at(-1);

  const waitingAndFull = (i: number): boolean => waitingQueue(s(i)).length > 0 && countsOf(s(i)).available === 0;
  const full = points.find((i) => waitingAndFull(i) && countsOf(s(i)).held === 0) ?? points.find((i) => waitingAndFull(i));

  let cancellation: BoundaryPlan['cancellation'];
  for (const i of cancelRows) {
    const before = s(i - 1);
    const steps = sheet.transactions[i]?.steps ?? [];
    const at = steps.findIndex((x) => x.type === 'cancel');
    const step = steps[at];
    const p = step && 'ref' in step ? partyByRef(before, step.ref) : undefined;
    if (p && (p.state === 'confirmed' || p.state === 'held')) {
      cancellation = { index: i, step: at, ref: p.ref };
      break;
    }
  }

  // Promotions that another step of the same row made possible: the moment before them is not a row's end.
  let promotesMidRow: string | undefined;
  let lastSeatMidRow: string | undefined;
  for (const i of indices) {
    const t = sheet.transactions[i];
    const row = rows[i];
    if (!t || !row) continue;
    let st = advance(s(i - 1), row.at).state;
    let madeRoom = false;
    for (const [k, step] of t.steps.entries()) {
      const promotes = step.type === 'promote' || step.type === 'review';
      if (promotes && madeRoom && expectations[i]?.outcomes[k]?.held?.ref) {
        promotesMidRow ??= t.op;
        if (lastSeatIn(st)) lastSeatMidRow ??= t.op;
      }
      if (!promotes) madeRoom = true;
      st = applyStep(st, step).state;
    }
  }

  const withHold = [...indices].reverse().find((i) => s(i).parties.some((p) => p.state === 'held'));
  return {
    sheet,
    states,
    start,
    blocked,
    withdrawal,
    beforeFirstHold,
    expiry,
    lastSeat,
    full,
    cancellation,
    saveAt: withHold ?? indices.length - 1,
    promotesMidRow,
    lastSeatMidRow,
  };
}

/** The model's state after a starting point, moved to `at` (lapsed holds resolved). */
export function modelAt(plan: BoundaryPlan, index: number, at?: number): ModelState {
  const st = stateAt(plan, index);
  return at === undefined ? st : advance(st, at).state;
}

export const countsWords = (c: ModelCounts): string => `${c.confirmed} confirmed, ${c.held} held, ${c.available} available`;
export const countsSlash = (c: Pick<ModelCounts, 'confirmed' | 'held' | 'available'>): string =>
  `${c.confirmed}/${c.held}/${c.available}`;
