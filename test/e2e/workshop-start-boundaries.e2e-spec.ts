import { runBoundary } from '../../apps/ledger/src/boundaries.js';
import { parseWorksheet, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

/**
 * One seat, 59-second holds, America/Anchorage: two one-person groups received at the same minute
 * (sequence breaks the tie) and the worksheet's first row already promotes. Its starting position is
 * the last-seat moment (one seat, two groups that each fit) and has two groups waiting; section 5
 * reported both cases "unverified: the worksheet never has two groups waiting at once", because it
 * looked for starting points only after rows, never at the starting position itself.
 */
function sheet(): Worksheet {
  return parseWorksheet({
    name: 'Tie Room',
    timeZone: 'America/Anchorage',
    date: '2026-12-12',
    start: '07:59',
    capacity: 1,
    policy: { order: 'strict', holdSeconds: 59, onOfferExpired: 'leave-queue' },
    reservations: [],
    waiting: [
      { ref: 'W-A', partySize: 1, received: '08:00', sequence: 1 },
      { ref: 'W-B', partySize: 1, received: '08:00', sequence: 2 },
    ],
    transactions: [
      {
        op: 'T-00',
        time: '08:01',
        action: 'Hold 1 for W-A',
        steps: [{ type: 'promote', expect: 'W-A' }],
        expect: { confirmed: 0, held: 1, available: 0, queue: ['W-B'] },
      },
      {
        op: 'T-01',
        time: '08:02',
        action: 'W-A lapses',
        steps: [{ type: 'expire', ref: 'W-A' }],
        expect: { confirmed: 0, held: 0, available: 1, queue: ['W-B'] },
      },
      {
        op: 'T-02',
        time: '08:02',
        action: 'W-B accepts its hold',
        steps: [
          { type: 'promote', expect: 'W-B' },
          { type: 'accept', ref: 'W-B' },
        ],
        expect: { confirmed: 1, held: 0, available: 0, queue: [] },
      },
    ],
  });
}

describe('section 5 from a worksheet’s starting position (ledger)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it('races two sessions for the last seat at the starting position', async () => {
    const r = await runBoundary(backend, sheet(), 'Last-seat conflict');
    expect([r.outcome, r.start, r.expected]).toEqual([
      'passed',
      'After the starting position; two sessions attempt promotion',
      'Exactly one W-A hold; W-B waits; 0 confirmed, 1 held, 0 available',
    ]);
  });

  it('withdraws the first of the two groups waiting at the starting position', async () => {
    const r = await runBoundary(backend, sheet(), 'Waiting withdrawal');
    expect([r.outcome, r.start]).toEqual(['passed', 'Main ledger at the starting position; cancel W-A']);
    expect(r.evidence).toContain('promoted W-B');
  });
});
