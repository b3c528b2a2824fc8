import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Step, type Transaction, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const row = (op: string, time: string, action: string, steps: Step[], figures: string, queue: string[] = []): Transaction => {
  const [confirmed = NaN, held = NaN, available = NaN] = figures.split('/').map(Number);
  return { op, time, action, steps, expect: { confirmed, held, available, queue } };
};
// As a worksheet file writes it: the refusal is the row's expectation, not a step type of its own.
const lateAccept = (ref: string): Step => ({ type: 'accept', ref, expect: 'refused' }) as Step;

/**
 * Sixteen seats, twenty-minute holds, Europe/Berlin. W-02 (four people) is too late to accept at
 * 09:30, rejoins under the same name at 09:40, and is held again when W-03's hold lapses at 09:50.
 */
function rejoinSheet(...last: Transaction[]): Worksheet {
  return parseWorksheet({
    name: 'Linden Rejoin',
    timeZone: 'Europe/Berlin',
    date: '2026-11-20',
    start: '08:00',
    capacity: 16,
    policy: { order: 'strict', holdSeconds: 1200, onOfferExpired: 'leave-queue' },
    reservations: [
      { ref: 'A', partySize: 9 },
      { ref: 'B', partySize: 5 },
    ],
    waiting: [
      { ref: 'W-01', partySize: 3, received: '08:40', sequence: 1 },
      { ref: 'W-02', partySize: 4, received: '08:41', sequence: 2 },
      { ref: 'W-03', partySize: 1, received: '08:42', sequence: 3 },
    ],
    transactions: [
      row('R-00', '09:00', 'Initial review', [{ type: 'review' }], '14/0/2', ['W-01', 'W-02', 'W-03']),
      row('R-01', '09:10', 'Cancel B', [{ type: 'cancel', ref: 'B' }], '9/0/7', ['W-01', 'W-02', 'W-03']),
      row('R-02', '09:10', 'Hold 3 for W-01', [{ type: 'promote', expect: 'W-01' }], '9/3/4', ['W-02', 'W-03']),
      row('R-03', '09:10', 'Hold 4 for W-02, expires 09:30', [{ type: 'promote', expect: 'W-02' }], '9/7/0', ['W-03']),
      row('R-04', '09:20', 'W-01 accepts', [{ type: 'accept', ref: 'W-01' }], '12/4/0', ['W-03']),
      row('R-05', '09:30', 'W-02 is too late to accept', [lateAccept('W-02')], '12/0/4', ['W-03']),
      row('R-06', '09:30', 'Hold 1 for W-03, expires 09:50', [{ type: 'promote', expect: 'W-03' }], '12/1/3'),
      row('R-07', '09:40', 'W-02 rejoins', [{ type: 'join', ref: 'W-02', partySize: 4, sequence: 4 }], '12/1/3', ['W-02']),
      row('R-08', '09:41', 'Review; W-02 cannot fit', [{ type: 'review' }], '12/1/3', ['W-02']),
      row('R-09', '09:50', 'W-03 expires', [{ type: 'expire', ref: 'W-03' }], '12/0/4', ['W-02']),
      row('R-10', '09:50', 'Hold 4 for W-02', [{ type: 'promote', expect: 'W-02' }], '12/4/0'),
      ...last,
    ],
  });
}

const failures = (rows: Array<{ passed: boolean; op: string; worksheetIssues: string[]; appIssues: string[] }>): string[][] =>
  rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues]);

describe('a group that rejoins under its old name, and a refused acceptance (ledger)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it('recognises a retried cancellation after the group rejoined under its name: the new request keeps waiting', async () => {
    // R-11 cancelled W-02's hold through its queue entry; the rejoin is a new entry. The retry sent
    // R-11's key to the new entry's cancel, another request under a used key: the app refused it (422).
    const sheet = rejoinSheet(
      row('R-11', '09:55', 'W-02 cancels its hold', [{ type: 'cancel', ref: 'W-02' }], '12/0/4'),
      row('R-12', '09:56', 'W-02 rejoins', [{ type: 'join', ref: 'W-02', partySize: 4, sequence: 5 }], '12/0/4', ['W-02']),
      row('R-13', '09:57', 'R-11 is received again', [{ type: 'retry', op: 'R-11' }], '12/0/4', ['W-02']),
    );
    const { rows } = await runLedger(await backend.client(), sheet, 'rejoin-retried-cancel');
    expect(failures(rows)).toEqual([]);
  });

  it('passes every row when the rejoined group’s hold is cancelled', async () => {
    const sheet = rejoinSheet(row('R-11', '10:02', 'Cancel held W-02', [{ type: 'cancel', ref: 'W-02' }], '12/0/4'));
    const { rows } = await runLedger(await backend.client(), sheet, 'rejoin-cancel');
    expect(failures(rows)).toEqual([]);
    expect(rows.find((r) => r.op === 'R-05')?.notes.join('; ')).toContain('W-02 accept: 409');
  });

  it('passes every row when the rejoined group accepts', async () => {
    const sheet = rejoinSheet(row('R-11', '10:02', 'Rejoined W-02 accepts', [{ type: 'accept', ref: 'W-02' }], '16/0/0'));
    const { rows } = await runLedger(await backend.client(), sheet, 'rejoin-accept');
    expect(failures(rows)).toEqual([]);
  });

  it('passes a retried cancellation of a group that had accepted its hold: the same request again, seats released once', async () => {
    // W-01 accepted at 09:20; its cancellation releases its three confirmed seats. The retry (same
    // operation, same Idempotency-Key) must be that same request again, not the queue entry's cancel
    // under a used key (refused IDEMPOTENCY_KEY_REUSED, which failed the row as the app's fault).
    const sheet = rejoinSheet(
      row('R-11', '10:02', 'Cancel confirmed W-01', [{ type: 'cancel', ref: 'W-01' }], '9/4/3'),
      row('Retry R-11', '10:03', "W-01's cancellation again", [{ type: 'retry', op: 'R-11' }], '9/4/3'),
    );
    const { rows } = await runLedger(await backend.client(), sheet, 'retry-confirmed-cancel');
    expect(failures(rows)).toEqual([]);
    expect(rows.find((r) => r.op === 'Retry R-11')?.notes.join('; ')).toContain('cancel W-01: 200 (replayed)');
  });

  it('fails a row that expects a refusal when the hold is still open, blaming the worksheet, not the app', async () => {
    const sheet = rejoinSheet(row('R-11', '10:02', 'W-02 accepts', [{ type: 'accept', ref: 'W-02' }], '16/0/0'));
    const r04 = sheet.transactions[4];
    if (r04) r04.steps = [lateAccept('W-01')];
    const { rows } = await runLedger(await backend.client(), sheet, 'rejoin-wrong-refusal');
    const failed = rows.find((r) => r.op === 'R-04');
    expect(failed?.passed).toBe(false);
    expect(failed?.worksheetIssues).toEqual([
      'R-04: step 1 (accept) does not hold under the policy: W-01 confirms 3; the row expects a refusal',
    ]);
    expect(failed?.appIssues).toEqual([]);
  });

  it('asks about the rejoined request, not the expired one, once the name is reused', async () => {
    const sheet = rejoinSheet(row('R-11', '10:02', 'Cancel held W-02', [{ type: 'cancel', ref: 'W-02' }], '12/0/4'));
    const r08 = sheet.transactions[8];
    // Wrong on paper: the new request has had no hold yet, so it has nothing that could have expired.
    if (r08) r08.steps = [{ type: 'review' }, { type: 'expire', ref: 'W-02' }];
    const { rows } = await runLedger(await backend.client(), sheet, 'rejoin-expire');
    expect(failures(rows)).toEqual([
      ['R-08', "R-08: step 2 (expire) does not hold under the policy: W-02's hold has not expired"],
    ]);
  });

  it('refuses a join that a changed policy makes ambiguous, before setting up a venue', async () => {
    const sheet = rejoinSheet(row('R-11', '10:02', 'Cancel held W-02', [{ type: 'cancel', ref: 'W-02' }], '12/0/4'));
    // keep-place puts W-02 back in its place when its hold lapses, and 09:30's promotion holds seats for it again.
    sheet.policy = { ...sheet.policy, onOfferExpired: 'keep-place' };
    await expect(runLedger(await backend.client(), sheet, 'rejoin-keep-place')).rejects.toThrow(
      'worksheet: row R-07: W-02 is still held: a join under a name in use is ambiguous.',
    );
  });

  it('refuses a worksheet that joins under a name still in use, naming the row', () => {
    const last = row('R-11', '09:55', 'W-01 joins again', [{ type: 'join', ref: 'W-01', partySize: 3, sequence: 5 }], '12/4/0');
    expect(() => rejoinSheet(last)).toThrow(
      'worksheet: row R-11: W-01 is still confirmed: a join under a name in use is ambiguous. Rejoin after it expires or is cancelled, or use another name',
    );
  });

  it('refuses an acceptance expectation other than accepted or refused', () => {
    const last = row(
      'R-11',
      '10:02',
      'W-02 accepts',
      [{ type: 'accept', ref: 'W-02', expect: 'late' } as unknown as Step],
      '16/0/0',
    );
    expect(() => rejoinSheet(last)).toThrow(
      'worksheet: row R-11: an accept step\'s "expect" is "accepted" or "refused", not "late"',
    );
  });
});
