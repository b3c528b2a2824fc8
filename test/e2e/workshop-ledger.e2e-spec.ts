import { readFileSync } from 'node:fs';
import { formatClosing, openChecks } from '../../apps/ledger/src/ledger.closing.js';
import { formatRows } from '../../apps/ledger/src/ledger.report.js';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';
import { readWorksheet, withSlip } from '../support/worksheets.js';

const maple = (): Worksheet => parseWorksheet(JSON.parse(readFileSync('examples/maple-room.worksheet.json', 'utf8')));

/** The worksheet's whole transaction ledger, T-00 to the retry of T-01, through HTTP on a sandbox venue. */
describe('Maple Room ledger (workshop preset, sandbox venue)', () => {
  const backend = new TestLedgerBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());

  it('matches every row of the worksheet and ends with the worksheet’s final parties', async () => {
    const client = await backend.client();
    const { session, rows } = await runLedger(client, maple(), 'maple-e2e');
    for (const r of rows) {
      expect({ op: r.op, ...r.observed }).toEqual({ op: r.op, ...r.expected });
      expect(r.passed).toBe(true);
    }
    expect(rows.map((r) => r.op)).toEqual([
      'T-00',
      'T-01',
      'T-02',
      'T-03',
      'T-04',
      'T-05',
      'T-06',
      'T-07',
      'T-08',
      'T-09',
      'T-10',
      'Retry T-01',
    ]);

    const reservations = await client.must<Array<{ name: string; partySize: number; state: string }>>(
      'GET',
      session.path('/reservations'),
    );
    const confirmed = reservations.filter((r) => r.state === 'CONFIRMED').map((r) => `${r.name} ${r.partySize}`);
    expect(confirmed.sort()).toEqual(['A 4', 'C 3', 'W-01 3', 'W-03 1', 'W-04 1']);
    expect(reservations.find((r) => r.name === 'B')?.state).toBe('CANCELLED');
    expect(reservations.find((r) => r.name === 'W-02')?.state).toBe('EXPIRED');

    const queue = await session.queue();
    expect(queue.entries.map((e) => [e.name, e.status])).toEqual([['W-05', 'waiting']]);
    const history = (
      await client.must<Array<{ subjectId: string; from: string | null; to: string; operationId: string; actor: string }>>(
        'GET',
        session.path(`/history?subjectId=${session.reservations.get('B') ?? ''}`),
      )
    ).reverse(); // newest first on the wire; read oldest first here
    // B: booked, then cancelled once; the retry left no second row, and the cancellation stays.
    expect(history.map((h) => `${h.from}→${h.to}`)).toEqual(['null→CONFIRMED', 'CONFIRMED→CANCELLED']);
    expect(history[1]?.operationId).toBe(`cancel-reservation-${session.reservations.get('B')}`);
    expect(history[1]?.actor).toMatch(/^staff:/);
    expect(await violations(backend.dataSource)).toEqual([]);
  });

  it('changes the outcome honestly when the policy changes: first fit skips the oldest group at 09:00', async () => {
    const sheet = maple();
    sheet.policy = { ...sheet.policy, order: 'host-pick' };
    const { rows } = await runLedger(await backend.client(), sheet, 'maple-first-fit');
    const t00 = rows[0];
    expect(t00?.passed).toBe(false);
    expect(t00?.observed).toEqual({ confirmed: 10, held: 2, available: 0, queue: ['W-01', 'W-03'] });
  });

  it('changes the outcome honestly when an expired party keeps its place', async () => {
    const sheet = maple();
    sheet.policy = { ...sheet.policy, onOfferExpired: 'keep-place' };
    const { rows } = await runLedger(await backend.client(), sheet, 'maple-keep-place');
    const t05 = rows.find((r) => r.op === 'T-05');
    expect(t05?.passed).toBe(false);
    // W-02 is back, ahead of W-03, with its original place.
    expect(t05?.observed.queue).toEqual(['W-02', 'W-03']);
    expect(await violations(backend.dataSource)).toEqual([]);
  });

  it('lets a manager change the policy before registration opens, and not after', async () => {
    const client = await backend.client();
    const venue = await client.must<{ id: string }>('POST', '/v1/venues', {
      slug: 'policy-lock',
      name: 'Lock',
      timeZone: 'America/Chicago',
      preset: 'workshop',
      poolCapacity: 12,
      sandbox: true,
      clock: '2026-10-09T13:00:00Z',
    });
    const before = await client.call('PATCH', `/v1/venues/${venue.id}`, { policy: { holdSeconds: 900, order: 'strict' } });
    expect(before.status).toBe(200);
    await client.must('POST', `/v1/venues/${venue.id}/reservations`, { name: 'A', partySize: 4 });
    const after = await client.call<{ error: { code: string; message: string } }>('PATCH', `/v1/venues/${venue.id}`, {
      policy: { holdSeconds: 60 },
    });
    expect(after.status).toBe(422);
    expect(after.body.error).toMatchObject({
      code: 'RULE_VIOLATION',
      message: 'The policy is fixed once registration has opened.',
    });
    const v = await client.must<{ policy: { holdSeconds: number } }>('GET', `/v1/venues/${venue.id}`);
    expect(v.policy.holdSeconds).toBe(900);
  });

  it('changes the outcome honestly when the hold is shorter', async () => {
    const sheet = maple();
    sheet.policy = { ...sheet.policy, holdSeconds: 600 };
    const { rows } = await runLedger(await backend.client(), sheet, 'maple-short-hold');
    // W-01's hold lapses at 09:15, before its 09:20 acceptance.
    expect(rows.find((r) => r.op === 'T-04')?.passed).toBe(false);
  });

  it('names the row and both figures where the worksheet’s paper arithmetic disagrees with the policy', async () => {
    const slipped = withSlip(withSlip(maple(), 'T-03', { held: 4, available: 1 }), 'T-07', { available: 2 });
    const { rows } = await runLedger(await backend.client(), slipped, 'maple-slip');
    expect(rows.filter((r) => !r.passed).map((r) => r.op)).toEqual(['T-03', 'T-07']);
    const t03 = rows.find((r) => r.op === 'T-03');
    expect(t03?.worksheetIssues).toEqual([
      'T-03: the worksheet says held 4, the policy gives 5',
      'T-03: the worksheet says available 1, the policy gives 0',
    ]);
    // The app agreed with the policy: the slip is the worksheet's, not the app's.
    expect(t03?.appIssues).toEqual([]);
    expect(rows.find((r) => r.op === 'T-07')?.worksheetIssues).toEqual([
      "T-07: the worksheet's 11 + 0 + 2 = 13, not the capacity 12",
      'T-07: the worksheet says available 2, the policy gives 1',
    ]);
    const report = formatRows(rows);
    expect(report).toContain('FAIL  T-03');
    expect(report).toContain(
      'worksheet arithmetic disagrees with the policy: T-03: the worksheet says held 4, the policy gives 5',
    );
    expect(report.split('\n').at(-1)).toBe('10 passed, 2 failed');
    const closing = formatClosing(slipped, { discrepancyOwner: 'Dana' }, new Date('2026-10-09T15:02:03Z'), openChecks(rows, []));
    expect(closing).toContain('- row T-03 (failed) / Dana / correct the worksheet');
  });

  it('records the worksheet’s decisions with the sandbox venue, and the report prints them with version and observed-at', async () => {
    const harbor = readWorksheet('examples/harbor-loft.worksheet.json');
    const client = await backend.client();
    const { rows, session } = await runLedger(client, harbor, 'harbor-e2e');
    expect(rows.filter((r) => !r.passed).map((r) => r.op)).toEqual([]);
    const venue = await client.must<{ decisions: Record<string, string> }>('GET', session.path(''));
    expect(venue.decisions).toEqual(harbor.decisions);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const closing = formatClosing(harbor, venue.decisions, new Date('2026-11-12T13:55:00Z'), openChecks(rows, []));
    expect(closing).toContain(`Test app / version: hostboard ${pkg.version}`);
    expect(closing).toContain(
      'Reviewer / observed at: Tomás (co-organizer) (2026-11-05) / 2026-11-12 14:55:00 (UTC+01:00) Europe/Berlin / 2026-11-12T13:55:00Z',
    );
    expect(closing).toContain('- Owner of unresolved discrepancies: Ines (workshop organizer)');
    expect(closing).toContain('Failed or unverified check / owner / next action:\n- none');
  });

  it('takes decisions as free text on the venue API: unknown keys refused, a later review merged in', async () => {
    const client = await backend.client();
    const bad = await client.call<{ error: { code: string } }>('POST', '/v1/venues', {
      slug: 'decisions-bad',
      name: 'Bad',
      timeZone: 'America/Chicago',
      preset: 'workshop',
      decisions: { reviewer: 'Sam', approvedBy: 'nobody' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION');
    const venue = await client.must<{ id: string; decisions: Record<string, string> }>('POST', '/v1/venues', {
      slug: 'decisions-ok',
      name: 'Ok',
      timeZone: 'America/Chicago',
      preset: 'workshop',
      sandbox: true,
      clock: '2026-10-09T13:00:00Z',
      decisions: { whoMayCancel: 'Hosts, on request', discrepancyOwner: 'Sam' },
    });
    expect(venue.decisions).toEqual({ whoMayCancel: 'Hosts, on request', discrepancyOwner: 'Sam' });
    await client.must('POST', `/v1/venues/${venue.id}/reservations`, { name: 'A', partySize: 4 });
    // Registration has opened: the policy is fixed, but the review can still be recorded.
    const review = await client.call<{ decisions: Record<string, string> }>('PATCH', `/v1/venues/${venue.id}`, {
      decisions: { reviewer: 'Lee', reviewDate: '2026-10-08' },
    });
    expect(review.status).toBe(200);
    expect(review.body.decisions).toEqual({
      whoMayCancel: 'Hosts, on request',
      discrepancyOwner: 'Sam',
      reviewer: 'Lee',
      reviewDate: '2026-10-08',
    });
    const plain = await client.must<{ decisions: Record<string, string> }>('POST', '/v1/venues', {
      slug: 'decisions-none',
      name: 'None',
      timeZone: 'America/Chicago',
      preset: 'restaurant',
    });
    expect(plain.decisions).toEqual({});
  });

  it('refuses a worksheet whose decisions carry an unknown key, naming the keys it takes', () => {
    const sheet = { ...maple(), decisions: { reviewer: 'Sam', approver: 'Kim' } };
    expect(() => parseWorksheet(sheet)).toThrow(
      'worksheet: "decisions" takes whoMayCancel, retries, discrepancyOwner, ruleChanges, reviewer, reviewDate; not "approver"',
    );
  });
});
