import { DateTime } from 'luxon';
import { replay, type ModelRow, type ModelStart, type ModelState, type RowExpectation } from '@hostboard/allocator';
import { localInstant } from './ledger.client.js';
import { happensTwice, type Transaction, type Worksheet } from './worksheet.js';

/** The worksheet's venue-local times as instants, for the policy model. */
export function modelStart(sheet: Worksheet): ModelStart {
  const at = (time: string): number => Date.parse(localInstant(sheet.date, time, sheet.timeZone));
  return {
    policy: { capacity: sheet.capacity, ...sheet.policy },
    start: at(sheet.start),
    registrations: sheet.reservations,
    waiting: sheet.waiting.map((w) => ({ ref: w.ref, partySize: w.partySize, received: at(w.received), sequence: w.sequence })),
  };
}

export function modelRows(sheet: Worksheet, rows: Transaction[] = sheet.transactions): ModelRow[] {
  return rows.map((t) => ({ op: t.op, at: Date.parse(localInstant(sheet.date, t.time, sheet.timeZone)), steps: t.steps }));
}

/** What the policy gives after each row of the worksheet, and the state after each. */
export function modelLedger(sheet: Worksheet): { expectations: RowExpectation[]; states: ModelState[] } {
  return replay(modelStart(sheet), modelRows(sheet));
}

/**
 * An instant as the worksheet writes it: venue-local HH:mm, with seconds when they are not zero (or
 * asked for). In the hour the clocks repeat, the offset follows ("01:15:00 (UTC-02:30)"): the wall
 * time alone names two instants an hour apart.
 */
export function localTime(sheet: Worksheet, ms: number, seconds = false): string {
  const dt = DateTime.fromMillis(ms, { zone: sheet.timeZone });
  const wall = dt.toFormat(seconds || dt.second !== 0 || dt.millisecond !== 0 ? 'HH:mm:ss' : 'HH:mm');
  return happensTwice(dt) ? `${wall} (UTC${dt.toFormat('ZZ')})` : wall;
}
