import { readFileSync } from 'node:fs';
import { runLedger } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet, type Worksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { TestLedgerBackend } from '../support/ledger-backend.js';

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
});
