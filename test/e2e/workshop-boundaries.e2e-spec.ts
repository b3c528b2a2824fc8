import { readFileSync } from 'node:fs';
import { boundaryCaseNames, runBoundary } from '../../apps/ledger/src/boundaries.js';
import { parseWorksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

const sheet = parseWorksheet(JSON.parse(readFileSync('examples/maple-room.worksheet.json', 'utf8')));

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
    const result = await runBoundary(backend, sheet, name);
    expect({ test: name, outcome: result.outcome, evidence: result.evidence }).toEqual({
      test: name,
      outcome: 'passed',
      evidence: result.evidence,
    });
  });
});
