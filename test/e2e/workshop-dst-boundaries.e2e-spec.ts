import { runBoundary } from '../../apps/ledger/src/boundaries.js';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const LONG_MS = 600_000;

/**
 * An organizer's own worksheet on the night the clocks go back in St. John's (2026-11-01: 01:00–01:59
 * happens twice, first at UTC−2:30, then at UTC−3:30). Every row names an unambiguous time, but the
 * first hold (00:30 NDT, 45 minutes) expires at 01:15 NDT, inside the repeated hour: the boundary
 * runs one second before, at and after that expiry must be those instants, not the later 01:15 NST,
 * an hour after the expiry, when every acceptance is already too late.
 */
const fallBack = parseWorksheet({
  name: 'Cove Studio (fall back)',
  timeZone: 'America/St_Johns',
  date: '2026-11-01',
  start: '00:10',
  capacity: 11,
  policy: { order: 'strict', holdSeconds: 2700, onOfferExpired: 'leave-queue' },
  reservations: [
    { ref: 'A', partySize: 4 },
    { ref: 'B', partySize: 5 },
  ],
  waiting: [
    { ref: 'W-01', partySize: 3, received: '00:15', sequence: 1 },
    { ref: 'W-02', partySize: 1, received: '00:16', sequence: 2 },
  ],
  transactions: [
    {
      op: 'F-00',
      time: '00:20',
      action: 'Initial review',
      steps: [{ type: 'review' }],
      expect: { confirmed: 9, held: 0, available: 2, queue: ['W-01', 'W-02'] },
    },
    {
      op: 'F-01',
      time: '00:30',
      action: 'Cancel A',
      steps: [{ type: 'cancel', ref: 'A' }],
      expect: { confirmed: 5, held: 0, available: 6, queue: ['W-01', 'W-02'] },
    },
    {
      op: 'F-02',
      time: '00:30',
      action: 'Hold 3 for W-01, expires 01:15 NDT',
      steps: [{ type: 'promote', expect: 'W-01' }],
      expect: { confirmed: 5, held: 3, available: 3, queue: ['W-02'] },
    },
    {
      op: 'F-03',
      time: '00:45',
      action: 'Hold 1 for W-02, expires 01:30 NDT',
      steps: [{ type: 'promote', expect: 'W-02' }],
      expect: { confirmed: 5, held: 4, available: 2, queue: [] },
    },
    {
      op: 'F-04',
      time: '02:05',
      action: 'W-01 too late',
      steps: [{ type: 'accept', ref: 'W-01', expect: 'refused' }],
      expect: { confirmed: 5, held: 0, available: 6, queue: [] },
    },
  ],
});

describe('boundary tests when a hold expires in the hour the clocks repeat', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it(
    'replays the rows, then accepts one second before the 01:15 NDT expiry and refuses at and after it',
    async () => {
      const { rows } = await runLedger(await backend.client(), fallBack, 'dst-rows');
      expect(rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues])).toEqual([]);
      const boundary = await runBoundary(backend, fallBack, 'Acceptance boundary');
      expect({ outcome: boundary.outcome, evidence: boundary.evidence }).toEqual({
        outcome: 'passed',
        evidence: boundary.evidence,
      });
      expect(boundary.evidence).toMatch(
        /^01:14:59 \(UTC-02:30\): 200, counts 8\/1\/2; 01:15:00 \(UTC-02:30\): 409 WAITLIST_OFFER_EXPIRED, counts 5\/1\/5/,
      );
    },
    LONG_MS,
  );

  it(
    'promotes 30 seconds after the cancellation and tests the full timestamp of its expiry (01:15:30 NDT)',
    async () => {
      const stamp = await runBoundary(backend, fallBack, 'Full timestamp');
      expect({ outcome: stamp.outcome, evidence: stamp.evidence }).toEqual({ outcome: 'passed', evidence: stamp.evidence });
      expect(stamp.evidence).toContain('expires 2026-11-01T03:45:30.000Z; accept at 01:15:29 (UTC-02:30): 200');
    },
    LONG_MS,
  );
});
