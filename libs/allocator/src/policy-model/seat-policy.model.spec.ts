import {
  advance,
  applyRow,
  applyStep,
  countsOf,
  initialState,
  replay,
  validPartySize,
  waitingQueue,
  type ModelRow,
  type ModelStart,
  type SeatPolicy,
} from './seat-policy.model.js';

const MIN = 60_000;
/** Minutes after 08:00 on the model's own timeline. */
const t = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return ((h ?? 0) - 8) * 60 * MIN + (m ?? 0) * MIN;
};

/** A worksheet shaped like the guide's, for any capacity: the first registration absorbs the difference. */
function sheet(capacity: number, policy: Partial<SeatPolicy> = {}): { start: ModelStart; rows: ModelRow[] } {
  const start: ModelStart = {
    policy: { capacity, order: 'strict', holdSeconds: 1800, onOfferExpired: 'leave-queue', ...policy },
    start: 0,
    registrations: [
      { ref: 'A', partySize: capacity - 8 },
      { ref: 'B', partySize: 3 },
      { ref: 'C', partySize: 3 },
    ],
    waiting: [
      { ref: 'W-01', partySize: 3, received: t('08:50'), sequence: 1 },
      { ref: 'W-02', partySize: 2, received: t('08:51'), sequence: 2 },
      { ref: 'W-03', partySize: 1, received: t('08:52'), sequence: 3 },
    ],
  };
  const rows: ModelRow[] = [
    { op: 'T-00', at: t('09:00'), steps: [{ type: 'review' }] },
    { op: 'T-01', at: t('09:05'), steps: [{ type: 'cancel', ref: 'B' }] },
    { op: 'T-02', at: t('09:05'), steps: [{ type: 'promote', expect: 'W-01' }] },
    { op: 'T-03', at: t('09:05'), steps: [{ type: 'promote', expect: 'W-02' }] },
    { op: 'T-04', at: t('09:20'), steps: [{ type: 'accept', ref: 'W-01' }] },
    { op: 'T-05', at: t('09:35'), steps: [{ type: 'expire', ref: 'W-02' }] },
    { op: 'T-06', at: t('09:35'), steps: [{ type: 'promote', expect: 'W-03' }] },
    { op: 'T-07', at: t('09:50'), steps: [{ type: 'accept', ref: 'W-03' }] },
    {
      op: 'T-08',
      at: t('09:55'),
      steps: [
        { type: 'join', ref: 'W-04', partySize: 1, sequence: 4 },
        { type: 'join', ref: 'W-05', partySize: 1, sequence: 5 },
      ],
    },
    { op: 'T-09', at: t('09:55'), steps: [{ type: 'promote', expect: 'W-04' }] },
    { op: 'T-10', at: t('10:00'), steps: [{ type: 'accept', ref: 'W-04' }] },
    { op: 'Retry T-01', at: t('10:01'), steps: [{ type: 'retry', op: 'T-01' }] },
  ];
  return { start, rows };
}

const summary = (capacity: number, policy?: Partial<SeatPolicy>): string[] => {
  const s = sheet(capacity, policy);
  return replay(s.start, s.rows).expectations.map(
    (e) => `${e.op} ${e.counts.confirmed}/${e.counts.held}/${e.counts.available} [${e.queue.join(',')}]`,
  );
};

describe('the seat policy model (the worksheet arithmetic)', () => {
  it('gives the guide’s ledger for a twelve-seat pool, every step ok', () => {
    const s = sheet(12);
    const { expectations } = replay(s.start, s.rows);
    expect(summary(12)).toEqual([
      'T-00 10/0/2 [W-01,W-02,W-03]',
      'T-01 7/0/5 [W-01,W-02,W-03]',
      'T-02 7/3/2 [W-02,W-03]',
      'T-03 7/5/0 [W-03]',
      'T-04 10/2/0 [W-03]',
      'T-05 10/0/2 [W-03]',
      'T-06 10/1/1 []',
      'T-07 11/0/1 []',
      'T-08 11/0/1 [W-04,W-05]',
      'T-09 11/1/0 [W-05]',
      'T-10 12/0/0 [W-05]',
      'Retry T-01 12/0/0 [W-05]',
    ]);
    expect(expectations.flatMap((e) => e.outcomes).every((o) => o.ok)).toBe(true);
    expect(expectations[5]?.expiredOnArrival).toEqual(['W-02']);
  });

  it('shifts only the confirmed figure when the first registration is larger (capacity 14)', () => {
    expect(summary(14)[0]).toBe('T-00 12/0/2 [W-01,W-02,W-03]');
    expect(summary(14).at(-1)).toBe('Retry T-01 14/0/0 [W-05]');
  });

  it('keeps confirmed + held + available equal to the capacity at every step, none negative', () => {
    for (const capacity of [9, 12, 14, 40]) {
      const s = sheet(capacity);
      for (const state of replay(s.start, s.rows).states) {
        const c = countsOf(state);
        expect(c.confirmed + c.held + c.available).toBe(capacity);
        expect(Math.min(c.confirmed, c.held, c.available)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('sets each hold’s expiry to the promotion instant plus the hold, at full precision', () => {
    let state = initialState(sheet(12, { holdSeconds: 1800 }).start);
    state = applyRow(state, { op: 'T-01', at: t('09:05'), steps: [{ type: 'cancel', ref: 'B' }] }).state;
    state = advance(state, t('09:05') + 30_000).state;
    const r = applyStep(state, { type: 'promote' });
    expect(r.outcome.held).toEqual({ ref: 'W-01', expiresAt: t('09:35') + 30_000, reason: null });
    // Strictly before the expiry: accepted. At it: too late, released once.
    const before = applyStep(advance(r.state, t('09:35') + 29_999).state, { type: 'accept', ref: 'W-01' });
    expect(before.outcome.ok).toBe(true);
    const at = applyStep(advance(r.state, t('09:35') + 30_000).state, { type: 'accept', ref: 'W-01' });
    expect(at.outcome.ok).toBe(false);
    expect(at.state.parties.find((p) => p.ref === 'W-01')).toMatchObject({ state: 'expired', releases: 1 });
    expect(countsOf(at.state)).toEqual({ capacity: 12, confirmed: 7, held: 0, available: 5 });
  });

  it('follows a shorter hold: W-01’s 09:20 acceptance is too late with a ten-minute hold', () => {
    const s = sheet(12, { holdSeconds: 600 });
    const t04 = replay(s.start, s.rows).expectations[4];
    expect(t04?.expiredOnArrival).toEqual(['W-01', 'W-02']);
    expect(t04?.outcomes[0]?.ok).toBe(false);
  });

  it('first fit (host-pick) skips the oldest group that cannot fit; strict order stops', () => {
    expect(summary(12, { order: 'host-pick' })[0]).toBe('T-00 10/2/0 [W-01,W-03]');
    expect(summary(12, { order: 'strict' })[0]).toBe('T-00 10/0/2 [W-01,W-02,W-03]');
  });

  it('keep-place puts an expired group back in its original place', () => {
    expect(summary(12, { onOfferExpired: 'keep-place' })[5]).toBe('T-05 10/0/2 [W-02,W-03]');
  });

  it('releases a cancelled group’s seats once; a repeat or a retry changes nothing', () => {
    const s = sheet(12);
    let state = replay(s.start, s.rows).states.at(-1) ?? initialState(s.start);
    const b = (): unknown => state.parties.find((p) => p.ref === 'B');
    expect(b()).toMatchObject({ state: 'cancelled', releases: 1 });
    state = applyStep(state, { type: 'cancel', ref: 'B' }).state;
    expect(b()).toMatchObject({ state: 'cancelled', releases: 1 });
    expect(countsOf(state).available).toBe(0);
  });

  it('a waiting group that withdraws releases nothing, and the next group becomes first', () => {
    const s = sheet(12);
    const afterReview = replay(s.start, s.rows.slice(0, 1)).states[0] ?? initialState(s.start);
    const r = applyStep(afterReview, { type: 'cancel', ref: 'W-01' });
    expect(countsOf(r.state)).toEqual({ capacity: 12, confirmed: 10, held: 0, available: 2 });
    expect(waitingQueue(r.state).map((p) => p.ref)).toEqual(['W-02', 'W-03']);
    const p = applyStep(r.state, { type: 'promote' });
    expect(p.outcome.held?.ref).toBe('W-02');
    expect(countsOf(p.state)).toEqual({ capacity: 12, confirmed: 10, held: 2, available: 0 });
  });

  it('accepts whole party sizes from 1 to the capacity only, and refuses others without a change', () => {
    const policy = { capacity: 14 };
    expect([1, 14].map((n) => validPartySize(policy, n))).toEqual([true, true]);
    expect([0, -1, 1.5, 15, '3', null].map((n) => validPartySize(policy, n))).toEqual([false, false, false, false, false, false]);
    const state = initialState({ ...sheet(14).start, registrations: [], waiting: [] });
    const r = applyStep(state, { type: 'join', ref: 'X', partySize: 15 });
    expect(r.outcome.ok).toBe(false);
    expect(waitingQueue(r.state)).toHaveLength(0);
  });

  it('breaks a received-time tie by queue sequence, and a rejoin goes to the end', () => {
    const s = sheet(12);
    const states = replay(s.start, s.rows).states;
    const afterT08 = states[8] ?? initialState(s.start);
    expect(waitingQueue(afterT08).map((p) => `${p.ref}#${p.sequence}`)).toEqual(['W-04#4', 'W-05#5']);
    const rejoin = applyStep(afterT08, { type: 'join', ref: 'W-02 again', partySize: 2 });
    expect(waitingQueue(rejoin.state).map((p) => p.ref)).toEqual(['W-04', 'W-05', 'W-02 again']);
  });

  it('reports a promotion that holds seats for someone else than the row says', () => {
    const state = initialState(sheet(12).start);
    const r = applyStep(advance(state, t('09:00')).state, { type: 'promote', expect: 'W-02' });
    expect(r.outcome).toMatchObject({ ok: false, held: { ref: null } });
  });
});
