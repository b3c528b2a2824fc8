import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Step, type Transaction, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const row = (op: string, time: string, steps: Step[], figures: string, queue: string[] = []): Transaction => {
  const [confirmed = NaN, held = NaN, available = NaN] = figures.split('/').map(Number);
  return { op, time, action: op, steps, expect: { confirmed, held, available, queue } };
};

/**
 * Five seats, 21.5-minute holds, keep-place, America/St_Johns. W-01's first hold lapses (it keeps its
 * place), it is offered again and accepts; then the organizer retries the expiry row and the
 * acceptance row. A retry names the operation that ran the first time: the first offer's expiry and
 * the second offer's acceptance, not whatever offer the group holds now.
 */
function sheet(): Worksheet {
  return parseWorksheet({
    name: 'Lantern Nook',
    timeZone: 'America/St_Johns',
    date: '2026-12-11',
    start: '19:07',
    capacity: 5,
    policy: { order: 'strict', holdSeconds: 1290, onOfferExpired: 'keep-place' },
    reservations: [{ ref: 'A', partySize: 2 }],
    waiting: [
      { ref: 'W-01', partySize: 3, received: '19:10', sequence: 1 },
      { ref: 'W-02', partySize: 1, received: '19:11', sequence: 2 },
    ],
    transactions: [
      row('T-00', '19:13', [{ type: 'promote', expect: 'W-01' }], '2/3/0', ['W-02']),
      // 19:13 + 21:30 = 19:34:30: lapsed by 19:35, W-01 back at the head of the queue.
      row('T-01', '19:35', [{ type: 'expire', ref: 'W-01' }], '2/0/3', ['W-01', 'W-02']),
      row('T-02', '19:35', [{ type: 'promote', expect: 'W-01' }], '2/3/0', ['W-02']),
      row('T-03', '19:40', [{ type: 'accept', ref: 'W-01' }], '5/0/0', ['W-02']),
      row('Retry T-01', '19:41', [{ type: 'retry', op: 'T-01' }], '5/0/0', ['W-02']),
      row('Retry T-03', '19:42', [{ type: 'retry', op: 'T-03' }], '5/0/0', ['W-02']),
    ],
  });
}

describe('retrying an expiry or an acceptance after the group was offered again (ledger, keep-place)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it('checks the offer the row named the first time, and passes every row', async () => {
    const { rows } = await runLedger(await backend.client(), sheet(), 'retry-after-reoffer');
    expect(rows.filter((r) => !r.passed).map((r) => [r.op, ...r.appIssues, ...r.worksheetIssues, ...r.notes])).toEqual([]);
    expect(rows.map((r) => r.passed)).toEqual([true, true, true, true, true, true]);
  });
});
