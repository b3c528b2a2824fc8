import { readFileSync } from 'node:fs';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const LONG_MS = 600_000;

/**
 * An organizer's own worksheet whose starting position cannot happen under its own policy: a waiting
 * group larger than the pool (groups never split, so valid sizes are 1 to the capacity), or starting
 * registrations that take more seats than there are. `npm run ledger` parses the file before it sets
 * up any venue: each is refused there, naming the party and the figures, instead of a row far
 * down the sheet blamed for something else or a raw API refusal halfway through the set-up.
 */
const maple = (): Worksheet => JSON.parse(readFileSync('examples/maple-room.worksheet.json', 'utf8')) as Worksheet;

describe('the worksheet’s starting position is checked against its own capacity', () => {
  it('refuses a waiting group larger than the pool, naming it and the sizes allowed', () => {
    const sheet = maple();
    sheet.waiting[0] = { ...sheet.waiting[0]!, partySize: 13 };
    expect(() => parseWorksheet(sheet)).toThrow(
      "worksheet: W-01's party size 13 is not a whole number from 1 to 12 (the capacity); groups never split, so a larger group can never be offered seats",
    );
  });

  it('refuses a registration of no one or of a fraction, naming it', () => {
    const zero = maple();
    zero.reservations[1] = { ref: 'B', partySize: 0 };
    expect(() => parseWorksheet(zero)).toThrow("worksheet: B's party size 0 is not a whole number from 1 to 12 (the capacity)");
    const half = maple();
    half.waiting[2] = { ...half.waiting[2]!, partySize: 1.5 };
    expect(() => parseWorksheet(half)).toThrow(
      "worksheet: W-03's party size 1.5 is not a whole number from 1 to 12 (the capacity)",
    );
  });

  it('refuses starting registrations that take more seats than the capacity, with the sum', () => {
    const sheet = maple();
    sheet.reservations[1] = { ref: 'B', partySize: 7 };
    expect(() => parseWorksheet(sheet)).toThrow(
      'worksheet: the starting registrations take 14 seats (A 4 + B 7 + C 3); the capacity is 12',
    );
  });
});

/**
 * A row may try the organizer's own mistake, a group larger than the pool, and say that it is turned
 * away (`"expect": "refused"` on the join): the policy refuses it and so must the app, with nobody
 * added and the counts unchanged. Without it the row failed as "worksheet arithmetic disagrees with
 * the policy" although the organizer's figures were right.
 */
describe('a join row that expects a group larger than the pool to be refused', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  afterEach(async () => expect(await violations(backend.dataSource)).toEqual([]));

  const withRow = (join: Record<string, unknown>): Worksheet => {
    const sheet = maple();
    sheet.transactions.splice(8, 0, {
      op: 'T-07b',
      time: '09:52',
      action: 'A group of 13 asks to join; refused',
      steps: [
        { type: 'join', ref: 'X-13', partySize: 13, sequence: 4, ...join } as Worksheet['transactions'][number]['steps'][number],
      ],
      expect: { confirmed: 11, held: 0, available: 1, queue: [] },
    });
    return parseWorksheet(sheet);
  };

  it(
    'passes when the app refuses it, and every later row keeps its figures',
    async () => {
      const { rows } = await runLedger(await backend.client(), withRow({ expect: 'refused' }), 'too-large');
      expect(rows.filter((r) => !r.passed).map((r) => [r.op, ...r.worksheetIssues, ...r.appIssues])).toEqual([]);
      expect(rows.map((r) => r.op)).toContain('T-07b');
    },
    LONG_MS,
  );

  it('refuses an "expect" a join step does not take', () => {
    expect(() => withRow({ expect: 'maybe' })).toThrow(
      'worksheet: row T-07b: a join step\'s "expect" is "joined" or "refused", not "maybe"',
    );
  });
});
