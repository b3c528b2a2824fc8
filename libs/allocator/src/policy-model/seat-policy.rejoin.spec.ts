import {
  applyRow,
  countsOf,
  initialState,
  waitingQueue,
  type ModelRow,
  type ModelStart,
  type ModelState,
  type ModelStep,
} from './seat-policy.model.js';

const MIN = 60_000;
/** Minutes after 08:00 on the model's own timeline. */
const t = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return ((h ?? 0) - 8) * 60 * MIN + (m ?? 0) * MIN;
};

/**
 * Sixteen seats, twenty-minute holds: W-02 (four people) lets its 09:10 hold lapse at 09:30, rejoins
 * under the same name at 09:40, waits for W-03's hold to lapse at 09:50, and is held again at 09:50.
 */
const start: ModelStart = {
  policy: { capacity: 16, order: 'strict', holdSeconds: 1200, onOfferExpired: 'leave-queue' },
  start: 0,
  registrations: [
    { ref: 'A', partySize: 10 },
    { ref: 'B', partySize: 4 },
  ],
  waiting: [
    { ref: 'W-01', partySize: 2, received: t('08:40'), sequence: 1 },
    { ref: 'W-02', partySize: 4, received: t('08:41'), sequence: 2 },
    { ref: 'W-03', partySize: 1, received: t('08:42'), sequence: 3 },
  ],
};
// The step type as the worksheet writes it (an accept may say it expects a refusal).
const accept = (ref: string, expect?: string): ModelStep => ({ type: 'accept', ref, expect }) as ModelStep;
const rows: ModelRow[] = [
  { op: 'R-01', at: t('09:10'), steps: [{ type: 'cancel', ref: 'B' }] },
  { op: 'R-02', at: t('09:10'), steps: [{ type: 'promote', expect: 'W-01' }] },
  { op: 'R-03', at: t('09:10'), steps: [{ type: 'promote', expect: 'W-02' }] },
  { op: 'R-04', at: t('09:20'), steps: [accept('W-01')] },
  { op: 'R-05', at: t('09:30'), steps: [{ type: 'promote', expect: 'W-03' }] },
  { op: 'R-06', at: t('09:40'), steps: [{ type: 'join', ref: 'W-02', partySize: 4, sequence: 4 }] },
  { op: 'R-07', at: t('09:41'), steps: [{ type: 'review' }] },
  { op: 'R-08', at: t('09:50'), steps: [{ type: 'expire', ref: 'W-03' }] },
  { op: 'R-09', at: t('09:50'), steps: [{ type: 'promote', expect: 'W-02' }] },
];

function run(list: ModelRow[], from: ModelState = initialState(start)): { state: ModelState; summary: string[]; ok: boolean[] } {
  let state = from;
  const summary: string[] = [];
  const ok: boolean[] = [];
  for (const row of list) {
    const r = applyRow(state, row);
    state = r.state;
    const c = r.expectation.counts;
    summary.push(`${row.op} ${c.confirmed}/${c.held}/${c.available} [${r.expectation.queue.join(',')}]`);
    ok.push(...r.expectation.outcomes.map((o) => o.ok));
  }
  return { state, summary, ok };
}

describe('a group that rejoins under its old name (the policy model)', () => {
  const base = run(rows);

  it('queues the rejoined group at the end and holds seats for it once they free up', () => {
    expect(base.summary.slice(4)).toEqual([
      'R-05 12/1/3 []',
      'R-06 12/1/3 [W-02]',
      'R-07 12/1/3 [W-02]',
      'R-08 12/0/4 [W-02]',
      'R-09 12/4/0 []',
    ]);
    expect(base.ok.every(Boolean)).toBe(true);
  });

  it('cancels the rejoined group’s hold, not the expired request with the same name', () => {
    const r = run([{ op: 'R-10', at: t('10:02'), steps: [{ type: 'cancel', ref: 'W-02' }] }], base.state);
    expect(r.summary).toEqual(['R-10 12/0/4 []']);
    expect(r.ok).toEqual([true]);
    expect(r.state.parties.filter((p) => p.ref === 'W-02').map((p) => `${p.sequence} ${p.state} ${p.releases}`)).toEqual([
      '2 expired 1',
      '4 cancelled 1',
    ]);
  });

  it('confirms the rejoined group’s hold when it accepts', () => {
    const r = run([{ op: 'R-10', at: t('10:02'), steps: [accept('W-02')] }], base.state);
    expect(r.summary).toEqual(['R-10 16/0/0 []']);
    expect(r.ok).toEqual([true]);
  });

  it('refuses a join under a name that is still waiting, held or confirmed, and changes nothing', () => {
    const afterHold = run(rows.slice(0, 5)).state; // W-01 confirmed, W-03 held, A confirmed
    for (const [ref, state] of [
      ['W-03', 'held'],
      ['W-01', 'confirmed'],
      ['A', 'confirmed'],
    ] as const) {
      const r = applyRow(afterHold, { op: 'X', at: t('09:31'), steps: [{ type: 'join', ref, partySize: 1 }] });
      expect(r.expectation.outcomes[0]).toMatchObject({ ok: false, ambiguous: true });
      expect(r.expectation.outcomes[0]?.text).toBe(
        `${ref} is still ${state}: a join under a name in use is ambiguous. Rejoin after it expires or is cancelled, or use another name`,
      );
      expect(r.state.parties).toHaveLength(afterHold.parties.length);
      expect(r.state.lastSequence).toBe(afterHold.lastSequence);
    }
    const waiting = applyRow(initialState(start), {
      op: 'X',
      at: t('08:45'),
      steps: [{ type: 'join', ref: 'W-02', partySize: 4 }],
    });
    expect(waiting.expectation.outcomes[0]).toMatchObject({ ok: false, ambiguous: true });
    expect(waitingQueue(waiting.state).map((p) => p.ref)).toEqual(['W-01', 'W-02', 'W-03']);
  });

  it('takes a rejoin after a cancellation', () => {
    const cancelled = run([{ op: 'X', at: t('09:00'), steps: [{ type: 'cancel', ref: 'W-03' }] }]).state;
    const r = applyRow(cancelled, { op: 'Y', at: t('09:01'), steps: [{ type: 'join', ref: 'W-03', partySize: 2, sequence: 4 }] });
    expect(r.expectation.outcomes[0]).toMatchObject({ ok: true });
    expect(r.expectation.queue).toEqual(['W-01', 'W-02', 'W-03']);
    expect(waitingQueue(r.state).map((p) => `${p.ref}#${p.sequence}`)).toEqual(['W-01#1', 'W-02#2', 'W-03#4']);
  });
});

describe('an acceptance the row expects to be refused', () => {
  it('holds when the hold has lapsed at the acceptance time, and changes nothing', () => {
    const before = run(rows.slice(0, 4)).state; // W-02 holds four seats until 09:30
    const late = applyRow(before, { op: 'L', at: t('09:30'), steps: [accept('W-02', 'refused')] });
    expect(late.expectation.outcomes[0]).toMatchObject({ ok: true });
    expect(countsOf(late.state)).toEqual({ capacity: 16, confirmed: 12, held: 0, available: 4 });
    expect(late.expectation.expiredOnArrival).toEqual(['W-02']);
  });

  it('does not hold when the acceptance is in time (the group confirms, as the app would)', () => {
    const before = run(rows.slice(0, 4)).state;
    const inTime = applyRow(before, { op: 'L', at: t('09:29'), steps: [accept('W-02', 'refused')] });
    expect(inTime.expectation.outcomes[0]).toMatchObject({ ok: false, text: 'W-02 confirms 4; the row expects a refusal' });
    expect(countsOf(inTime.state)).toEqual({ capacity: 16, confirmed: 16, held: 0, available: 0 });
  });

  it('an acceptance the row expects to succeed still fails when it is too late', () => {
    const before = run(rows.slice(0, 4)).state;
    for (const expect_ of [undefined, 'accepted']) {
      const late = applyRow(before, { op: 'L', at: t('09:30'), steps: [accept('W-02', expect_)] });
      expect(late.expectation.outcomes[0]).toMatchObject({ ok: false, text: 'W-02 has no open hold to accept' });
    }
  });
});
