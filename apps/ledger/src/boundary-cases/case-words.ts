import { applyStep, countsOf, partyByRef, waitingQueue, type ModelState } from '@hostboard/allocator';
import type { LedgerClient } from '../ledger.client.js';
import type { LedgerSession } from '../ledger.runner.js';
import { countsSlash, type BoundaryPlan } from '../boundary-plan.js';
import type { Worksheet } from '../worksheet.js';
import { Unverifiable } from './case.js';

// Words and small reads the boundary cases share: counts as a host reads them, rows by name, the
// model's next promotion, an expiry counted in the history.

export const code = (body: unknown): string | undefined => (body as { error?: { code?: string } } | null)?.error?.code;
export const answer = (a: { status: number; body: unknown }): string => `${a.status}${code(a.body) ? ` ${code(a.body)}` : ''}`;
export const slash = (c: { confirmed: number; held: number; available: number }): string => countsSlash(c);
export const list = (refs: string[]): string => (refs.length ? refs.join(', ') : 'nobody');
export const waits = (refs: string[]): string =>
  refs.length ? `${list(refs)} ${refs.length === 1 ? 'waits' : 'wait'}` : 'nobody waits';
export const emptyOf = (sheet: Worksheet): Worksheet => ({ ...sheet, reservations: [], waiting: [], transactions: [] });
export const rowName = (plan: BoundaryPlan, i: number): string =>
  i < 0 ? 'the starting position' : `${plan.sheet.transactions[i]?.op ?? '?'} (${plan.sheet.transactions[i]?.time ?? '?'})`;
export const need = <T>(value: T | undefined, why: string): T => {
  if (value === undefined) throw new Unverifiable(why);
  return value;
};
/**
 * Why a case found no starting point. A reset case starts between rows: when a row frees seats and
 * promotes in one go, the moment in between is not seen, and saying "no promotion holds seats" of a
 * worksheet that holds seats in every other row would be wrong.
 */
export const betweenRows = (why: string, midRow: string | undefined): string =>
  midRow === undefined
    ? why
    : `${why}: a reset case starts between rows, and ${midRow} frees seats and promotes in one row; give its promotion a row of its own`;
export const refsOf = (st: ModelState): string[] => waitingQueue(st).map((p) => p.ref);
export const sameCounts = (a: { confirmed: number; held: number; available: number }, st: ModelState): boolean =>
  slash(a) === slash(countsOf(st));
export const promoteModel = (
  st: ModelState,
): { state: ModelState; ref: string | null; expiresAt: number | null; reason: string | null } => {
  const r = applyStep(st, { type: 'promote' });
  return {
    state: r.state,
    ref: r.outcome.held?.ref ?? null,
    expiresAt: r.outcome.held?.expiresAt ?? null,
    reason: r.outcome.held?.reason ?? null,
  };
};
export const promotionWords = (p: { ref: string | null; reason: string | null }, st: ModelState): string =>
  p.ref ? `${p.ref} receives a ${partyByRef(st, p.ref)?.partySize ?? '?'}-seat hold` : 'No promotion';

/** How many times a party's held seats lapsed (EXPIRED rows in the history of its reservations). */
export async function expiryRows(s: LedgerSession, ref: string): Promise<number> {
  const history = await s.client.must<Array<{ subjectType: string; to: string; subjectId: string }>>(
    'GET',
    s.path('/history?limit=500'),
  );
  const entryId = s.entries.get(ref);
  const reservations = await s.client.must<Array<{ id: string; entryId: string | null }>>(
    'GET',
    s.path('/reservations?limit=500'),
  );
  const ids = new Set(reservations.filter((r) => r.entryId === entryId).map((r) => r.id));
  return history.filter((h) => h.subjectType === 'reservation' && ids.has(h.subjectId) && h.to === 'EXPIRED').length;
}

export async function snapshot(client: LedgerClient, s: LedgerSession): Promise<string> {
  const [reservations, queue, counts, history] = await Promise.all([
    client.must('GET', s.path('/reservations?limit=500')),
    client.must<{ entries: unknown[] }>('GET', s.path('/queue')),
    client.must('GET', s.path('/counts')),
    client.must('GET', s.path('/history?limit=500')),
  ]);
  return JSON.stringify({ reservations, queue: queue.entries, counts, history });
}
