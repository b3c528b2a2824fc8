import { boundaryCaseNames, runBoundaries, runBoundary, type BoundaryResult } from '../../apps/ledger/src/boundaries.js';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import type { Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';
import { readWorksheet, storyWorksheet } from '../support/worksheets.js';

const LONG_MS = 600_000;
const maple = readWorksheet('examples/maple-room.worksheet.json');

/** Worksheet section 5: each boundary test on its own, from its own starting point, over HTTP. */
describe('Maple Room boundary tests (worksheet section 5)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it('covers all thirteen cases of the worksheet', () => {
    expect(boundaryCaseNames()).toHaveLength(13);
  });

  it.each(boundaryCaseNames())('%s', async (name) => {
    const result = await runBoundary(backend, maple, name);
    expect({ test: name, outcome: result.outcome, evidence: result.evidence }).toEqual({
      test: name,
      outcome: 'passed',
      evidence: result.evidence,
    });
  });
});

/**
 * The same thirteen cases built from other worksheets: their capacity, first review, first
 * cancellation, first hold to expire and its exact expiry, last-seat moment and full state.
 */
describe('boundary tests for worksheets with other capacities, holds and time zones', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  /** Runs the worksheet's rows and all thirteen cases; answers the cases' results, each case's by its name. */
  const all = async (sheet: Worksheet): Promise<(name: string) => BoundaryResult> => {
    const { rows } = await runLedger(await backend.client(), sheet, `rows-${sheet.capacity}-${sheet.policy.holdSeconds}`);
    expect(rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues])).toEqual([]);
    const results = await runBoundaries(backend, sheet);
    expect(results.map((r) => r.test)).toEqual(boundaryCaseNames());
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.test}: ${r.outcome}: ${r.evidence}`)).toEqual([]);
    const result = (name: string): BoundaryResult => {
      const r = results.find((x) => x.test === name);
      if (!r) throw new Error(`no result for ${name}`);
      return r;
    };
    const text = (name: string): string => `${result(name).start} → ${result(name).expected}`;
    // The texts carry this worksheet's own figures, never the sample's.
    expect(text('Empty')).toContain(`0 confirmed, 0 held, ${sheet.capacity} available`);
    expect(text('Whole capacity')).toContain(`request ${sheet.capacity} seats`);
    expect(text('Invalid size')).toContain(`request ${sheet.capacity + 1}, 0, −1 or 1.5`);
    if (sheet.capacity !== 12) expect(results.map((r) => r.expected).join(' ')).not.toMatch(/\b12 available\b|\b10\/0\/2\b/);
    return result;
  };

  it(
    'Harbor Loft: 20 seats, 20-minute holds, Europe/Berlin, parties of 2 to 6',
    async () => {
      const harbor = readWorksheet('examples/harbor-loft.worksheet.json');
      const result = await all(harbor);
      // The texts of the runs all() made (every one passed there): no second run of the same case.
      const plan = result('Acceptance boundary');
      expect(plan.start).toBe("Q-01's 14:30 hold expiry, separate runs at 14:29:59 / 14:30:00 / 14:30:01");
      const stamp = result('Full timestamp');
      expect(`${stamp.start} → ${stamp.expected}`).toBe(
        'Reset after H-01 (14:10); promote Q-01 at 14:10:30 → Expiry is 14:30:30; acceptance at 14:30:29 succeeds, at 14:30:30 fails in a separate run',
      );
    },
    LONG_MS,
  );

  it(
    'Lotus Studio: a cancellation at 10:02:30 still promotes at a time with seconds (17 seats, 20-minute holds, Asia/Kolkata)',
    async () => {
      const lotus = readWorksheet('examples/lotus-studio.worksheet.json');
      const { rows } = await runLedger(await backend.client(), lotus, 'rows-lotus');
      expect(rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues])).toEqual([]);
      // Half a minute after 10:02:30 is 10:03:00, a whole minute: an app that dropped the seconds passed there.
      const stamp = await runBoundary(backend, lotus, 'Full timestamp');
      expect({ text: `${stamp.start} → ${stamp.expected}`, outcome: stamp.outcome }).toEqual({
        text: 'Reset after L-01 (10:02:30); promote W-01 at 10:02:45 → Expiry is 10:22:45; acceptance at 10:22:44 succeeds, at 10:22:45 fails in a separate run',
        outcome: 'passed',
      });
    },
    LONG_MS,
  );

  it(
    '14 seats with 20-minute holds (the copy that used to fail 9 of 13)',
    async () => {
      const sheet = storyWorksheet(14, 20);
      const result = await all(sheet);
      const oldest = result('Oldest cannot fit');
      expect(oldest.expected).toBe('No promotion; 2 available');
      const lastSeat = result('Last-seat conflict');
      expect(lastSeat.expected).toBe('Exactly one W-04 hold; W-05 waits; 13 confirmed, 1 held, 0 available');
    },
    LONG_MS,
  );

  it(
    '30 seats with 44-minute holds in Asia/Tokyo',
    async () => {
      const sheet = storyWorksheet(30, 44, 'Asia/Tokyo');
      const result = await all(sheet);
      const full = result('Acceptance boundary');
      // The 09:05 holds lapse 44 minutes later.
      expect(full.start).toBe("W-02's 09:49 hold expiry, separate runs at 09:48:59 / 09:49:00 / 09:49:01");
    },
    LONG_MS,
  );
});
