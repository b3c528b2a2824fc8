import type { RowExpectation } from '@hostboard/allocator';
import type { Transaction } from './worksheet.js';

export interface Figures {
  confirmed: number;
  held: number;
  available: number;
  queue: string[];
}

export const figuresText = (f: Figures): string =>
  `${f.confirmed}/${f.held}/${f.available} [${f.queue.length ? f.queue.join(', ') : 'Empty'}]`;

const FIELDS = ['confirmed', 'held', 'available'] as const;
const queueText = (q: string[]): string => (q.length ? q.join(', ') : 'Empty');

/**
 * Where two sets of figures for one row differ, each difference naming the row and both figures:
 * "T-03: the worksheet says held 4, the policy gives 5".
 */
export function differences(op: string, a: Figures, aName: string, b: Figures, bName: string): string[] {
  const out: string[] = [];
  for (const f of FIELDS) if (a[f] !== b[f]) out.push(`${op}: ${aName} ${f} ${a[f]}, ${bName} ${b[f]}`);
  if (queueText(a.queue) !== queueText(b.queue))
    out.push(`${op}: ${aName} queue [${queueText(a.queue)}], ${bName} [${queueText(b.queue)}]`);
  return out;
}

/**
 * The organizer's paper arithmetic for a row, against the policy: the three counts must add to the
 * capacity (none negative), match what the policy gives, and each step must do what the row says.
 */
export function paperProblems(t: Transaction, model: RowExpectation, capacity: number): string[] {
  const e = t.expect;
  const out: string[] = [];
  const sum = e.confirmed + e.held + e.available;
  if (sum !== capacity)
    out.push(`${t.op}: the worksheet's ${e.confirmed} + ${e.held} + ${e.available} = ${sum}, not the capacity ${capacity}`);
  if (Math.min(e.confirmed, e.held, e.available) < 0) out.push(`${t.op}: the worksheet has a negative count`);
  out.push(...differences(t.op, e, 'the worksheet says', { ...model.counts, queue: model.queue }, 'the policy gives'));
  t.steps.forEach((s, i) => {
    const o = model.outcomes[i];
    if (o && !o.ok) out.push(`${t.op}: step ${i + 1} (${s.type}) does not hold under the policy: ${o.text}`);
  });
  return out;
}
