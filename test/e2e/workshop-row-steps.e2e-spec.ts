import { runBoundary } from '../../apps/ledger/src/boundaries.js';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Step, type Transaction, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const row = (op: string, time: string, action: string, steps: Step[], figures: string, queue: string[] = []): Transaction => {
  const [confirmed = NaN, held = NaN, available = NaN] = figures.split('/').map(Number);
  return { op, time, action, steps, expect: { confirmed, held, available, queue } };
};

/**
 * Seven seats, twenty-five-minute holds, Asia/Kolkata. Rows of several steps, as an organizer writes
 * them: a cancellation and the two holds it makes possible in one row, two groups joining in one row,
 * and both rows retried. Each step is a request of its own, and a retry must be recognised step by step.
 */
function sheet(extra: Transaction[] = []): Worksheet {
  return parseWorksheet({
    name: 'Cedar Hall',
    timeZone: 'Asia/Kolkata',
    date: '2026-11-20',
    start: '09:30',
    capacity: 7,
    policy: { order: 'strict', holdSeconds: 1500, onOfferExpired: 'leave-queue' },
    reservations: [
      { ref: 'R1', partySize: 5 },
      { ref: 'R2', partySize: 1 },
    ],
    waiting: [{ ref: 'Q-01', partySize: 3, received: '10:00', sequence: 1 }],
    transactions: [
      row('C-00', '10:05', 'Review; Q-01 cannot fit', [{ type: 'review' }], '6/0/1', ['Q-01']),
      row(
        'C-01',
        '10:10',
        'Q-02 (2) and Q-03 (1) join',
        [
          { type: 'join', ref: 'Q-02', partySize: 2, sequence: 2 },
          { type: 'join', ref: 'Q-03', partySize: 1, sequence: 3 },
        ],
        '6/0/1',
        ['Q-01', 'Q-02', 'Q-03'],
      ),
      row(
        'C-02',
        '10:15',
        'Review; cancel R1; hold 3 for Q-01 and 2 for Q-02',
        [
          { type: 'review' },
          { type: 'cancel', ref: 'R1' },
          { type: 'promote', expect: 'Q-01' },
          { type: 'promote', expect: 'Q-02' },
        ],
        '1/5/1',
        ['Q-03'],
      ),
      row('Retry C-01', '10:16', 'The joins are received again', [{ type: 'retry', op: 'C-01' }], '1/5/1', ['Q-03']),
      row('Retry C-02', '10:17', 'The row is sent again', [{ type: 'retry', op: 'C-02' }], '1/5/1', ['Q-03']),
      ...extra,
    ],
  });
}

const failures = (rows: Array<{ passed: boolean; op: string; worksheetIssues: string[]; appIssues: string[] }>): string[][] =>
  rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues]);

describe('a worksheet row of several steps (ledger)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  it('holds seats for both groups after a cancellation in the same row', async () => {
    const s = sheet();
    s.transactions = s.transactions.slice(0, 3);
    const { rows } = await runLedger(await backend.client(), s, 'row-steps-holds');
    expect(failures(rows)).toEqual([]);
    expect(rows[2]?.notes).toEqual([
      'no promotion: One seat available; the oldest group needs three.',
      'cancel R1: 200',
      expect.stringMatching(/^held for Q-01, expires 2026-11-20T05:10:00/),
      expect.stringMatching(/^held for Q-02, expires 2026-11-20T05:10:00/),
    ]);
  });

  it('sends each step as its own request, and recognises a retried row step by step', async () => {
    const { rows, session } = await runLedger(await backend.client(), sheet(), 'row-steps');
    expect(failures(rows)).toEqual([]);
    expect(rows.map((r) => r.passed)).toEqual([true, true, true, true, true]);
    // The retried joins are the same two requests: no second in the queue.
    const queue = await session.queue();
    expect(queue.entries.map((e) => `${e.name}:${e.status}`)).toEqual(['Q-01:offered', 'Q-02:offered', 'Q-03:waiting']);
  });

  it('fails a row whose join has the wrong sequence as the worksheet’s mistake, and goes on to the next rows', async () => {
    const s = sheet();
    const c01 = s.transactions[1];
    if (c01) c01.steps = c01.steps.map((x) => (x.type === 'join' ? { ...x, sequence: x.sequence === 2 ? 3 : 2 } : x));
    const { rows } = await runLedger(await backend.client(), s, 'row-steps-sequence');
    expect(failures(rows)).toEqual([
      [
        'C-01',
        'C-01: step 1 (join) does not hold under the policy: Q-02 joins with sequence 2',
        'C-01: step 2 (join) does not hold under the policy: Q-03 joins with sequence 3',
      ],
    ]);
    expect(rows[1]?.notes).toEqual([
      'Q-02 got queue sequence 2, the worksheet says 3',
      'Q-03 got queue sequence 3, the worksheet says 2',
    ]);
    expect(rows).toHaveLength(5);
  });

  it('retries the row’s cancellation with the key it was first sent with (section 5)', async () => {
    const recancel = await runBoundary(backend, sheet(), 'Repeat cancellation');
    expect(recancel.start).toBe('After Retry C-02 (10:17); retry C-02');
    expect(recancel.evidence).toContain('same key 200 (replayed)');
    expect(recancel.outcome).toBe('passed');
  });
});

describe('section 5 on a worksheet that frees seats and promotes in one row (ledger)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());

  /** One seat, 45-second holds, Europe/London on the night the clocks go back; the cancellation and the hold share a row. */
  const solo = (): Worksheet =>
    parseWorksheet({
      name: 'Solo Booth',
      timeZone: 'Europe/London',
      date: '2026-10-25',
      start: '00:30',
      capacity: 1,
      policy: { order: 'strict', holdSeconds: 45, onOfferExpired: 'leave-queue' },
      reservations: [{ ref: 'A', partySize: 1 }],
      waiting: [
        { ref: 'W-01', partySize: 1, received: '00:40', sequence: 1 },
        { ref: 'W-02', partySize: 1, received: '00:40', sequence: 2 },
      ],
      transactions: [
        row('S-00', '00:50', 'Full', [{ type: 'review' }], '1/0/0', ['W-01', 'W-02']),
        row(
          'S-01',
          '00:55',
          'A cancels; hold W-01',
          [
            { type: 'cancel', ref: 'A' },
            { type: 'promote', expect: 'W-01' },
          ],
          '0/1/0',
          ['W-02'],
        ),
        row('S-02', '00:56', 'W-01 accepts', [{ type: 'accept', ref: 'W-01', expect: 'refused' }], '0/0/1', ['W-02']),
      ],
    });

  it('says why a case is unverified without denying the holds the worksheet makes', async () => {
    const stamp = await runBoundary(backend, solo(), 'Full timestamp');
    expect(stamp.outcome).toBe('unverified');
    expect(stamp.evidence).toBe(
      'no row ends where a promotion would hold seats: a reset case starts between rows, and S-01 frees seats and promotes in one row; give its promotion a row of its own',
    );
    const lastSeat = await runBoundary(backend, solo(), 'Last-seat conflict');
    expect(lastSeat.outcome).toBe('unverified');
    expect(lastSeat.evidence).toContain('S-01 frees seats and promotes in one row');
  });
});

describe('a worksheet whose times do not run forward (ledger)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());

  const venues = async (): Promise<number> =>
    Number((await backend.dataSource.query<Array<{ n: string }>>('SELECT count(*) AS n FROM venues'))[0]?.n);

  /** A late-evening workshop: its rows cross midnight, which one worksheet date cannot say. */
  const lateNight = (): Worksheet => {
    const s = sheet();
    s.name = 'Night Owl Lab';
    s.timeZone = 'America/Los_Angeles';
    s.start = '23:20';
    s.waiting = [{ ref: 'Q-01', partySize: 3, received: '23:30', sequence: 1 }];
    const times = ['23:35', '23:50', '23:55', '00:05', '00:10'];
    s.transactions = s.transactions.map((t, i) => ({ ...t, time: times[i] ?? t.time }));
    return s;
  };

  it('refuses rows that cross midnight, naming the row, before any venue is set up', async () => {
    const before = await venues();
    const message =
      'worksheet: row Retry C-01: 00:05 is earlier than row C-02 (23:55); every time is on 2026-11-20, the worksheet\'s "date", so the rows must run in time order (a worksheet covers one day, up to midnight)';
    expect(() => parseWorksheet(lateNight())).toThrow(message);
    await expect(runLedger(await backend.client(), lateNight(), 'night-owl')).rejects.toThrow(message);
    expect(await venues()).toBe(before);
  });

  it('refuses a waiting list out of order, and a time the clocks skip on a daylight-saving day', async () => {
    const outOfOrder = sheet();
    outOfOrder.waiting = [
      { ref: 'Q-01', partySize: 3, received: '10:00', sequence: 1 },
      { ref: 'Q-09', partySize: 1, received: '09:58', sequence: 2 },
    ];
    await expect(runLedger(await backend.client(), outOfOrder, 'out-of-order')).rejects.toThrow(
      'worksheet: Q-09 was received: 09:58 is earlier than Q-01\'s received time (10:00); every time is on 2026-11-20, the worksheet\'s "date", so list the waiting requests oldest first, after the start',
    );
    const skipped = sheet();
    skipped.timeZone = 'America/Chicago';
    skipped.date = '2026-03-08';
    skipped.start = '01:00';
    skipped.waiting = [{ ref: 'Q-01', partySize: 3, received: '01:30', sequence: 1 }];
    skipped.transactions = skipped.transactions.map((t, i) => ({
      ...t,
      time: ['01:45', '02:30', '03:10', '03:11', '03:12'][i] ?? t.time,
    }));
    const before = await venues();
    await expect(runLedger(await backend.client(), skipped, 'spring-forward')).rejects.toThrow(
      'worksheet: row C-01: 02:30 does not happen on 2026-03-08 in America/Chicago: the clocks skip it (daylight saving time)',
    );
    expect(await venues()).toBe(before);
  });

  it('refuses a time that happens twice on the night the clocks go back, naming the row', async () => {
    // Promoted at 00:50 with a 30-minute hold, accepted at "01:10": read as the second 01:10, that was
    // 80 minutes later and the acceptance was refused, blaming the worksheet's figures.
    const repeated = sheet();
    repeated.timeZone = 'America/Chicago';
    repeated.date = '2026-11-01';
    repeated.start = '00:00';
    repeated.waiting = [{ ref: 'Q-01', partySize: 3, received: '00:30', sequence: 1 }];
    repeated.transactions = repeated.transactions.map((t, i) => ({
      ...t,
      time: ['00:45', '00:50', '01:10', '02:10', '02:11'][i] ?? t.time,
    }));
    const before = await venues();
    const message =
      'happens twice on 2026-11-01 in America/Chicago: the clocks go back (daylight saving time), so the worksheet cannot say which; use a time outside that hour';
    expect(() => parseWorksheet(repeated)).toThrow(message);
    await expect(runLedger(await backend.client(), repeated, 'fall-back')).rejects.toThrow(`01:10 ${message}`);
    expect(await venues()).toBe(before);
    // The same rows an hour later, clear of the repeated hour, are read.
    const clear = sheet();
    clear.timeZone = 'America/Chicago';
    clear.date = '2026-11-01';
    clear.start = '00:00';
    clear.waiting = [{ ref: 'Q-01', partySize: 3, received: '00:30', sequence: 1 }];
    clear.transactions = clear.transactions.map((t, i) => ({
      ...t,
      time: ['00:45', '00:50', '02:10', '02:11', '02:12'][i] ?? t.time,
    }));
    expect(() => parseWorksheet(clear)).not.toThrow();
  });
});
