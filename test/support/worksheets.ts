import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { parseWorksheet, type Transaction, type Worksheet } from '../../apps/ledger/src/worksheet.js';

export const readWorksheet = (file: string): Worksheet => parseWorksheet(JSON.parse(readFileSync(file, 'utf8')));

/**
 * The guide's story for any capacity and hold, with its paper arithmetic written out here (not taken
 * from the policy model): the first registration takes the extra seats, so two seats are free at the
 * first review; the 09:05 holds lapse after `holdMinutes`, W-01 accepts halfway through its hold.
 */
export function storyWorksheet(capacity: number, holdMinutes: number, timeZone = 'America/Chicago'): Worksheet {
  // W-04 accepts five minutes after its hold starts, so the hold must be longer than that.
  if (capacity < 9 || holdMinutes < 6 || holdMinutes % 2 !== 0) throw new Error('capacity ≥ 9 and an even hold ≥ 6 minutes');
  const at = (minutesAfterNine: number): string =>
    DateTime.fromObject({ hour: 9, minute: 0 }).plus({ minutes: minutesAfterNine }).toFormat('HH:mm');
  const C = capacity;
  const h = holdMinutes;
  const row = (
    op: string,
    m: number,
    action: string,
    steps: Transaction['steps'],
    c: number,
    held: number,
    q: string[],
  ): Transaction => ({
    op,
    time: at(m),
    action,
    steps,
    expect: { confirmed: c, held, available: C - c - held, queue: q },
  });
  const expiry = 5 + h;
  const lastSeat = expiry + h / 2 + 5;
  return {
    name: `Story ${C} seats, ${h}-minute holds`,
    timeZone,
    date: '2026-10-09',
    start: '08:00',
    capacity: C,
    policy: { order: 'strict', holdSeconds: h * 60, onOfferExpired: 'leave-queue' },
    decisions: { discrepancyOwner: 'The test organizer' },
    reservations: [
      { ref: 'A', partySize: C - 8 },
      { ref: 'B', partySize: 3 },
      { ref: 'C', partySize: 3 },
    ],
    waiting: [
      { ref: 'W-01', partySize: 3, received: '08:50', sequence: 1 },
      { ref: 'W-02', partySize: 2, received: '08:51', sequence: 2 },
      { ref: 'W-03', partySize: 1, received: '08:52', sequence: 3 },
    ],
    transactions: [
      row('T-00', 0, 'Initial review', [{ type: 'review' }], C - 2, 0, ['W-01', 'W-02', 'W-03']),
      row('T-01', 5, 'Cancel B', [{ type: 'cancel', ref: 'B' }], C - 5, 0, ['W-01', 'W-02', 'W-03']),
      row('T-02', 5, 'Hold 3 for W-01', [{ type: 'promote', expect: 'W-01' }], C - 5, 3, ['W-02', 'W-03']),
      row('T-03', 5, 'Hold 2 for W-02', [{ type: 'promote', expect: 'W-02' }], C - 5, 5, ['W-03']),
      row('T-04', 5 + h / 2, 'W-01 accepts', [{ type: 'accept', ref: 'W-01' }], C - 2, 2, ['W-03']),
      row('T-05', expiry, 'W-02 expires', [{ type: 'expire', ref: 'W-02' }], C - 2, 0, ['W-03']),
      row('T-06', expiry, 'Hold 1 for W-03', [{ type: 'promote', expect: 'W-03' }], C - 2, 1, []),
      row('T-07', expiry + h / 2, 'W-03 accepts', [{ type: 'accept', ref: 'W-03' }], C - 1, 0, []),
      row(
        'T-08',
        lastSeat,
        'Add W-04 and W-05',
        [
          { type: 'join', ref: 'W-04', partySize: 1, sequence: 4 },
          { type: 'join', ref: 'W-05', partySize: 1, sequence: 5 },
        ],
        C - 1,
        0,
        ['W-04', 'W-05'],
      ),
      row('T-09', lastSeat, 'Hold 1 for W-04', [{ type: 'promote', expect: 'W-04' }], C - 1, 1, ['W-05']),
      row('T-10', lastSeat + 5, 'W-04 accepts', [{ type: 'accept', ref: 'W-04' }], C, 0, ['W-05']),
      row('Retry T-01', lastSeat + 6, "Receive B's cancellation again", [{ type: 'retry', op: 'T-01' }], C, 0, ['W-05']),
    ],
  };
}

/** A copy of a worksheet with one row's paper figures changed (a deliberate arithmetic slip). */
export function withSlip(sheet: Worksheet, op: string, change: Partial<Transaction['expect']>): Worksheet {
  const copy = structuredClone(sheet);
  const row = copy.transactions.find((t) => t.op === op);
  if (!row) throw new Error(`no row ${op}`);
  row.expect = { ...row.expect, ...change };
  return copy;
}
