import { readFileSync } from 'node:fs';
import { planBoundaries } from './boundary-plan.js';
import { CASES } from './boundary-cases.js';
import { parseWorksheet, type Worksheet } from './worksheet.js';

const read = (file: string): Worksheet => parseWorksheet(JSON.parse(readFileSync(file, 'utf8')));
const opAt = (sheet: Worksheet, i: number | undefined): string | undefined =>
  i === undefined ? undefined : (sheet.transactions[i]?.op ?? 'start');

describe('section 5 starting points, found in the worksheet by the policy model', () => {
  it('finds the guide’s own starting points in the Maple Room worksheet', () => {
    const sheet = read('examples/maple-room.worksheet.json');
    const plan = planBoundaries(sheet);
    expect({
      blocked: opAt(sheet, plan.blocked),
      withdrawal: opAt(sheet, plan.withdrawal),
      beforeFirstHold: opAt(sheet, plan.beforeFirstHold),
      expiry: plan.expiry && {
        ref: plan.expiry.ref,
        before: opAt(sheet, plan.expiry.before),
        after: opAt(sheet, plan.expiry.expiredAfter),
      },
      lastSeat: opAt(sheet, plan.lastSeat),
      full: opAt(sheet, plan.full),
      cancellation: plan.cancellation?.ref,
      saveAt: opAt(sheet, plan.saveAt),
    }).toEqual({
      blocked: 'T-00',
      withdrawal: 'T-00',
      beforeFirstHold: 'T-01',
      expiry: { ref: 'W-02', before: 'T-04', after: 'T-05' },
      lastSeat: 'T-08',
      full: 'T-10',
      cancellation: 'B',
      saveAt: 'T-09',
    });
    expect(plan.expiry?.expiresAt).toBe(Date.parse('2026-10-09T14:35:00Z'));
  });

  it('writes the texts in the worksheet’s own numbers and references (Harbor Loft)', () => {
    const plan = planBoundaries(read('examples/harbor-loft.worksheet.json'));
    const texts = CASES.map((c) => `${c.test}: ${c.describe(plan).start} → ${c.describe(plan).expected}`);
    expect(texts).toEqual([
      'Empty: No reservations or waiting groups → 0 confirmed, 0 held, 20 available',
      'Whole capacity: Empty; request 20 seats → One 20-seat hold, 0 available',
      'Invalid size: Empty; separately request 21, 0, −1 or 1.5 → Reject each; counts unchanged',
      'Oldest cannot fit: Main ledger at H-00 (14:00); Q-01 needs 6 → No promotion; 5 available',
      'Waiting withdrawal: Main ledger at H-00 (14:00); cancel Q-01 → Seat counts remain 15/0/5; Q-02 becomes first. Promote: Q-02 receives a 4-seat hold, 15/4/1; Q-03 waits. Retry Q-01 cancellation: unchanged',
      "Acceptance boundary: Q-01's 14:30 hold expiry, separate runs at 14:29:59 / 14:30:00 / 14:30:01 → Before: acceptance succeeds (20/0/0); at/after: acceptance refused and expired hold released once (14/0/6)",
      'Full timestamp: Reset after H-01 (14:10); promote Q-01 at 14:10:30 → Expiry is 14:30:30; acceptance at 14:30:29 succeeds, at 14:30:30 fails in a separate run',
      "Repeat expiry: Immediately after H-05 (14:30); repeat Q-01's expiry → 14 confirmed, 0 held, 6 available",
      'Last-seat conflict: After H-08 (14:45); two sessions attempt promotion → Exactly one Q-04 hold; Q-05 waits; 16 confirmed, 4 held, 0 available',
      'Full: After H-10 (14:52); attempt Q-05 promotion → Refuse; 20 confirmed, 0 held, 0 available',
      'Repeat cancellation: After H-10 (14:52); retry H-01 → Unchanged (20/0/0); no second release for R-2',
      'Save and return: Any completed ledger step: after H-09 (14:45) → Same seats, states, expiry and history',
      'Record access: Separate permitted and unauthorized viewers → Only authorized reads/changes according to your policy',
    ]);
  });

  it('falls back to the first hold when no hold expires, and leaves absent states undefined', () => {
    const sheet = read('examples/maple-room.worksheet.json');
    // Only the starting position, the review, the cancellation and W-01's hold, accepted in time.
    const short: Worksheet = {
      ...sheet,
      transactions: [
        ...sheet.transactions.slice(0, 3),
        {
          op: 'X-1',
          time: '09:10',
          action: 'W-01 accepts',
          steps: [{ type: 'accept', ref: 'W-01' }],
          expect: { confirmed: 10, held: 0, available: 2, queue: ['W-02', 'W-03'] },
        },
      ],
    };
    const plan = planBoundaries(short);
    expect(plan.expiry).toMatchObject({ ref: 'W-01', expiredAfter: undefined });
    expect(opAt(short, plan.expiry?.before)).toBe('T-02');
    expect(plan.full).toBeUndefined();
  });
});
