import { randomBytes } from 'node:crypto';
import {
  applyStep,
  countsOf,
  nextPromotion,
  partyByRef,
  validPartySize,
  waitingQueue,
  type ModelState,
} from '@hostboard/allocator';
import type { LedgerClient } from './ledger.client.js';
import { LedgerSession, runUntil } from './ledger.runner.js';
import { countsSlash, countsWords, modelAt, stateAt, type BoundaryPlan } from './boundary-plan.js';
import { localTime } from './worksheet-model.js';
import type { Worksheet } from './worksheet.js';

export interface Check {
  ok: boolean;
  evidence: string;
}

/** A second api on the same saved data (with DATABASE_URL), for the last-seat case's other session. */
export interface SecondApi {
  client: LedgerClient;
  /** How it runs, for the evidence: "a second api process (pid 1234)". */
  label: string;
  close(): Promise<void>;
}

/** Where the cases run: the ledger's own in-process api, or a test's app. */
export interface LedgerBackend {
  readonly baseUrl: string;
  client(): Promise<LedgerClient>;
  /** A signed-in staff member with no role at our venues. */
  stranger(): Promise<LedgerClient>;
  /** Stops the api and starts it again on the same saved data. */
  restart(): Promise<void>;
  /** Another api on the same database, or null on the embedded default (one process, one database session). */
  secondApi(): Promise<SecondApi | null>;
}

/** This worksheet has no state the case needs: reported as unverified, with the reason. */
export class Unverifiable extends Error {}

export interface Case {
  test: string;
  /** The starting point and the expected result, in the worksheet's own numbers and references. */
  describe(plan: BoundaryPlan): { start: string; expected: string };
  run(host: LedgerBackend, client: LedgerClient, plan: BoundaryPlan): Promise<Check>;
}

export const slug = (name: string): string => `b-${name}-${randomBytes(3).toString('hex')}`;
const code = (body: unknown): string | undefined => (body as { error?: { code?: string } } | null)?.error?.code;
const answer = (a: { status: number; body: unknown }): string => `${a.status}${code(a.body) ? ` ${code(a.body)}` : ''}`;
const slash = (c: { confirmed: number; held: number; available: number }): string => countsSlash(c);
const list = (refs: string[]): string => (refs.length ? refs.join(', ') : 'nobody');
const waits = (refs: string[]): string =>
  refs.length ? `${list(refs)} ${refs.length === 1 ? 'waits' : 'wait'}` : 'nobody waits';
const emptyOf = (sheet: Worksheet): Worksheet => ({ ...sheet, reservations: [], waiting: [], transactions: [] });
const rowName = (plan: BoundaryPlan, i: number): string =>
  i < 0 ? 'the starting position' : `${plan.sheet.transactions[i]?.op ?? '?'} (${plan.sheet.transactions[i]?.time ?? '?'})`;
const need = <T>(value: T | undefined, why: string): T => {
  if (value === undefined) throw new Unverifiable(why);
  return value;
};
/**
 * Why a case found no starting point. A reset case starts between rows: when a row frees seats and
 * promotes in one go, the moment in between is not seen, and saying "no promotion holds seats" of a
 * worksheet that holds seats in every other row would be wrong.
 */
const betweenRows = (why: string, midRow: string | undefined): string =>
  midRow === undefined
    ? why
    : `${why}: a reset case starts between rows, and ${midRow} frees seats and promotes in one row; give its promotion a row of its own`;
const refsOf = (st: ModelState): string[] => waitingQueue(st).map((p) => p.ref);
const sameCounts = (a: { confirmed: number; held: number; available: number }, st: ModelState): boolean =>
  slash(a) === slash(countsOf(st));
const promoteModel = (
  st: ModelState,
): { state: ModelState; ref: string | null; expiresAt: number | null; reason: string | null } => {
  const r = applyStep(st, { type: 'promote' });
  return {
    state: r.state,
    ref: r.outcome.held?.ref ?? null,
    expiresAt: r.outcome.held?.expiresAt ?? null,
    reason: r.outcome.held?.reason ?? null,
  };
};
const promotionWords = (p: { ref: string | null; reason: string | null }, st: ModelState): string =>
  p.ref ? `${p.ref} receives a ${partyByRef(st, p.ref)?.partySize ?? '?'}-seat hold` : 'No promotion';

/** How many times a party's held seats lapsed (EXPIRED rows in the history of its reservations). */
export async function expiryRows(s: LedgerSession, ref: string): Promise<number> {
  const history = await s.client.must<Array<{ subjectType: string; to: string; subjectId: string }>>(
    'GET',
    s.path('/history?limit=500'),
  );
  const entryId = s.entries.get(ref);
  const reservations = await s.client.must<Array<{ id: string; entryId: string | null }>>(
    'GET',
    s.path('/reservations?limit=500'),
  );
  const ids = new Set(reservations.filter((r) => r.entryId === entryId).map((r) => r.id));
  return history.filter((h) => h.subjectType === 'reservation' && ids.has(h.subjectId) && h.to === 'EXPIRED').length;
}

async function snapshot(client: LedgerClient, s: LedgerSession): Promise<string> {
  const [reservations, queue, counts, history] = await Promise.all([
    client.must('GET', s.path('/reservations?limit=500')),
    client.must<{ entries: unknown[] }>('GET', s.path('/queue')),
    client.must('GET', s.path('/counts')),
    client.must('GET', s.path('/history?limit=500')),
  ]);
  return JSON.stringify({ reservations, queue: queue.entries, counts, history });
}

export const CASES: Case[] = [
  {
    test: 'Empty',
    describe: (p) => ({
      start: 'No reservations or waiting groups',
      expected: `0 confirmed, 0 held, ${p.sheet.capacity} available`,
    }),
    run: async (_h, client, plan) => {
      const s = await runUntil(client, emptyOf(plan.sheet), slug('empty'), -1);
      const c = await s.counts();
      const ok = c.confirmed === 0 && c.held === 0 && c.available === plan.sheet.capacity;
      return { ok, evidence: `counts ${slash(c)}` };
    },
  },
  {
    test: 'Whole capacity',
    describe: (p) => ({
      start: `Empty; request ${p.sheet.capacity} seat${p.sheet.capacity === 1 ? '' : 's'}`,
      expected: `One ${p.sheet.capacity}-seat hold, 0 available`,
    }),
    run: async (_h, client, plan) => {
      const cap = plan.sheet.capacity;
      const s = await runUntil(client, emptyOf(plan.sheet), slug('whole'), -1);
      await s.join('ALL', cap);
      const a = await s.promote();
      const c = await s.counts();
      const ok = a.status === 201 && c.held === cap && c.available === 0 && c.confirmed === 0;
      return { ok, evidence: `promotion ${a.status}; counts ${slash(c)}` };
    },
  },
  {
    test: 'Invalid size',
    describe: (p) => ({
      start: `Empty; separately request ${p.sheet.capacity + 1}, 0, −1 or 1.5`,
      expected: 'Reject each; counts unchanged',
    }),
    run: async (_h, client, plan) => {
      const s = await runUntil(client, emptyOf(plan.sheet), slug('invalid'), -1);
      const sizes: unknown[] = [plan.sheet.capacity + 1, 0, -1, 1.5, '3', null];
      const answers: string[] = [];
      // The policy refuses every one of them; the app must too.
      let ok = sizes.every((n) => !validPartySize(plan.sheet, n));
      for (const size of sizes) {
        const a = await client.call('POST', s.path('/queue'), { name: 'X', partySize: size });
        answers.push(`${JSON.stringify(size)}→${answer(a)}`);
        ok = ok && a.status === 400 && code(a.body) === 'VALIDATION';
      }
      const c = await s.counts();
      const q = await s.queue();
      ok = ok && c.available === plan.sheet.capacity && q.entries.length === 0;
      return { ok, evidence: `${answers.join(', ')}; counts ${slash(c)}, queue empty: ${q.entries.length === 0}` };
    },
  },
  {
    test: 'Oldest cannot fit',
    describe: (p) => {
      if (p.blocked === undefined)
        return { start: 'A state where the oldest waiting group cannot fit', expected: 'No promotion' };
      const st = stateAt(p, p.blocked);
      const head = waitingQueue(st)[0];
      const next = promoteModel(st);
      return {
        start: `Main ledger at ${rowName(p, p.blocked)}; ${head?.ref} needs ${head?.partySize}`,
        expected: `${promotionWords(next, st)}; ${countsOf(next.state).available} available`,
      };
    },
    run: async (_h, client, plan) => {
      const at = need(plan.blocked, 'the worksheet never reaches a state where the oldest waiting group cannot fit');
      const want = promoteModel(stateAt(plan, at));
      const s = await runUntil(client, plan.sheet, slug('oldest'), at);
      const a = await s.promote();
      const got = a.body.offer ? s.refOfEntry(a.body.offer.entryId) : null;
      const c = await s.counts();
      const head = (await s.queue()).head?.reason;
      const ok = got === want.ref && sameCounts(c, want.state);
      return {
        ok,
        evidence: `promotion ${a.status}${got ? ` for ${got}` : `: "${a.body.reason}"`}; queue head: "${head}"; counts ${slash(c)}`,
      };
    },
  },
  {
    test: 'Waiting withdrawal',
    describe: (p) => {
      if (p.withdrawal === undefined)
        return { start: 'Two or more groups waiting; cancel the first', expected: 'Seat counts unchanged' };
      const st = stateAt(p, p.withdrawal);
      const head = refsOf(st)[0] ?? '?';
      const after = applyStep(st, { type: 'cancel', ref: head }).state;
      const promoted = promoteModel(after);
      return {
        start: `Main ledger at ${rowName(p, p.withdrawal)}; cancel ${head}`,
        expected:
          `Seat counts remain ${slash(countsOf(after))}; ${refsOf(after)[0]} becomes first. ` +
          `Promote: ${promotionWords(promoted, after)}, ${slash(countsOf(promoted.state))}; ${waits(refsOf(promoted.state))}. ` +
          `Retry ${head} cancellation: unchanged`,
      };
    },
    run: async (_h, client, plan) => {
      const at = need(plan.withdrawal, 'the worksheet never has two groups waiting at once');
      const st = stateAt(plan, at);
      const head = refsOf(st)[0] ?? '';
      const afterCancel = applyStep(st, { type: 'cancel', ref: head }).state;
      const promoted = promoteModel(afterCancel);
      const s = await runUntil(client, plan.sheet, slug('withdraw'), at);
      await s.cancel(head, s.keyOf(`withdraw-${head}`));
      const c1 = await s.counts();
      const q1 = await s.waitingNames();
      const p = await s.promote();
      const got = p.body.offer ? s.refOfEntry(p.body.offer.entryId) : null;
      const c2 = await s.counts();
      const q2 = await s.waitingNames();
      const retry = await s.cancel(head, s.keyOf(`withdraw-${head}-again`));
      const c3 = await s.counts();
      const ok =
        sameCounts(c1, afterCancel) &&
        q1.join() === refsOf(afterCancel).join() &&
        got === promoted.ref &&
        sameCounts(c2, promoted.state) &&
        q2.join() === refsOf(promoted.state).join() &&
        retry.status === 200 &&
        slash(c3) === slash(c2);
      return {
        ok,
        evidence: `after cancel ${slash(c1)} first ${q1[0] ?? 'nobody'}; promoted ${got ?? 'nobody'}: ${slash(c2)}, waiting [${q2.join(', ')}]; retry ${retry.status}: ${slash(c3)}`,
      };
    },
  },
  {
    test: 'Acceptance boundary',
    describe: (p) => {
      if (!p.expiry) return { start: 'A hold and its expiry', expected: 'Before: acceptance succeeds; at/after: refused' };
      const { ref, expiresAt: e } = p.expiry;
      const t = (ms: number): string => localTime(p.sheet, ms, true);
      const ok = applyStep(modelAt(p, p.expiry.before, e - 1000), { type: 'accept', ref }).state;
      const late = applyStep(modelAt(p, p.expiry.before, e), { type: 'accept', ref }).state;
      return {
        start: `${ref}'s ${localTime(p.sheet, e)} hold expiry, separate runs at ${t(e - 1000)} / ${t(e)} / ${t(e + 1000)}`,
        expected: `Before: acceptance succeeds (${slash(countsOf(ok))}); at/after: acceptance refused and expired hold released once (${slash(countsOf(late))})`,
      };
    },
    run: async (_h, client, plan) => {
      const x = need(plan.expiry, 'the worksheet creates no hold');
      const parts: string[] = [];
      let ok = true;
      for (const offset of [-1000, 0, 1000]) {
        const at = x.expiresAt + offset;
        const want = applyStep(modelAt(plan, x.before, at), { type: 'accept', ref: x.ref });
        const s = await runUntil(client, plan.sheet, slug('accept'), x.before);
        await s.moveClock(at);
        const a = await s.accept(x.ref);
        const c = await s.counts();
        const releases = await expiryRows(s, x.ref);
        const good = want.outcome.ok
          ? a.status === 200 && sameCounts(c, want.state)
          : a.status === 409 && code(a.body) === 'WAITLIST_OFFER_EXPIRED' && sameCounts(c, want.state) && releases === 1;
        ok = ok && good && want.outcome.ok === offset < 0;
        parts.push(
          `${localTime(plan.sheet, at, true)}: ${answer(a)}, counts ${slash(c)}${offset < 0 ? '' : `, released ${releases}×`}`,
        );
      }
      return { ok, evidence: parts.join('; ') };
    },
  },
  {
    test: 'Full timestamp',
    describe: (p) => {
      if (p.beforeFirstHold === undefined)
        return { start: 'A promotion at a time with seconds', expected: 'Expiry keeps the seconds' };
      const promoteAt = fullStampAt(p);
      const held = promoteModel(modelAt(p, p.beforeFirstHold, promoteAt));
      const e = held.expiresAt ?? 0;
      const t = (ms: number): string => localTime(p.sheet, ms);
      return {
        start: `Reset after ${rowName(p, p.beforeFirstHold)}; promote ${held.ref} at ${t(promoteAt)}`,
        expected: `Expiry is ${t(e)}; acceptance at ${t(e - 1000)} succeeds, at ${t(e)} fails in a separate run`,
      };
    },
    run: async (_h, client, plan) => {
      const from = need(plan.beforeFirstHold, betweenRows('no row ends where a promotion would hold seats', plan.promotesMidRow));
      const promoteAt = fullStampAt(plan);
      const held = promoteModel(modelAt(plan, from, promoteAt));
      const e = need(held.expiresAt ?? undefined, 'the policy holds nothing at that moment');
      const parts: string[] = [];
      let ok = true;
      for (const [at, shouldPass] of [
        [e - 1000, true],
        [e, false],
      ] as const) {
        const s = await runUntil(client, plan.sheet, slug('stamp'), from);
        await s.moveClock(promoteAt);
        const p = await s.promote();
        const expiresAt = p.body.offer?.expiresAt;
        await s.moveClock(at);
        const a = await s.accept(held.ref ?? '');
        const good =
          expiresAt === new Date(e).toISOString() &&
          (shouldPass ? a.status === 200 : a.status === 409 && code(a.body) === 'WAITLIST_OFFER_EXPIRED');
        ok = ok && good;
        parts.push(`expires ${expiresAt}; accept at ${localTime(plan.sheet, at)}: ${answer(a)}`);
      }
      return { ok, evidence: parts.join('; ') };
    },
  },
  {
    test: 'Repeat expiry',
    describe: (p) => {
      const x = p.expiry;
      if (!x) return { start: 'Immediately after an expiry; repeat it', expected: 'Counts unchanged' };
      const st = x.expiredAfter !== undefined ? stateAt(p, x.expiredAfter) : modelAt(p, x.before, x.expiresAt);
      const where =
        x.expiredAfter !== undefined
          ? `Immediately after ${rowName(p, x.expiredAfter)}`
          : `At ${x.ref}'s expiry ${localTime(p.sheet, x.expiresAt)}`;
      return { start: `${where}; repeat ${x.ref}'s expiry`, expected: countsWords(countsOf(st)) };
    },
    run: async (_h, client, plan) => {
      const x = need(plan.expiry, 'the worksheet creates no hold');
      let s: LedgerSession;
      let want: ModelState;
      if (x.expiredAfter !== undefined) {
        s = await runUntil(client, plan.sheet, slug('reexpire'), x.expiredAfter);
        want = stateAt(plan, x.expiredAfter);
      } else {
        s = await runUntil(client, plan.sheet, slug('reexpire'), x.before);
        await s.moveClock(x.expiresAt);
        want = modelAt(plan, x.before, x.expiresAt);
      }
      const sweep = await client.must<{ expired: string[] }>('POST', s.path('/sweeps'), {}, s.keyOf('repeat-expiry'));
      const now = (await client.must<{ clock: string }>('GET', s.path(''))).clock;
      const again = await client.must<{ expired: string[] }>('POST', s.path('/clock'), { now });
      const c = await s.counts();
      const releases = await expiryRows(s, x.ref);
      const ok = sweep.expired.length === 0 && again.expired.length === 0 && sameCounts(c, want) && releases === 1;
      return {
        ok,
        evidence: `sweep expired ${sweep.expired.length}, clock expired ${again.expired.length}; counts ${slash(c)}; ${x.ref} released ${releases}×`,
      };
    },
  },
  {
    test: 'Last-seat conflict',
    describe: (p) => {
      if (p.lastSeat === undefined)
        return { start: 'Two groups for the last seats; two sessions attempt promotion', expected: 'Exactly one hold' };
      const st = stateAt(p, p.lastSeat);
      const held = promoteModel(st);
      return {
        start: `After ${rowName(p, p.lastSeat)}; two sessions attempt promotion`,
        expected: `Exactly one ${held.ref} hold; ${waits(refsOf(held.state))}; ${countsWords(countsOf(held.state))}`,
      };
    },
    run: async (host, client, plan) => {
      const at = need(
        plan.lastSeat,
        betweenRows('the worksheet never has two groups contending for the last seats', plan.lastSeatMidRow),
      );
      const want = promoteModel(stateAt(plan, at));
      const s = await runUntil(client, plan.sheet, slug('lastseat'), at);
      const other = await host.secondApi();
      try {
        const second = new LedgerSession(other?.client ?? (await host.client()), plan.sheet);
        second.venueId = s.venueId;
        second.entries.clear();
        for (const [k, v] of s.entries) second.entries.set(k, v);
        const [a, b] = await Promise.all([s.promote(), second.promote()]);
        const holds = [a, b].filter((x) => x.status === 201 && x.body.offer);
        const who = holds.map((x) => s.refOfEntry(x.body.offer?.entryId ?? ''));
        const c = await s.counts();
        const q = await s.waitingNames();
        const ok =
          holds.length === 1 && who[0] === want.ref && q.join() === refsOf(want.state).join() && sameCounts(c, want.state);
        const how = other
          ? `two sessions on two api instances over one PostgreSQL database: ${other.label}`
          : 'two sessions on one api process: the embedded default runs one database session, so that one process serialises the two attempts';
        return {
          ok,
          evidence: `answers ${a.status}/${b.status}; holds for [${who.join(', ')}]; waiting [${q.join(', ')}]; counts ${slash(c)} (${how})`,
        };
      } finally {
        await other?.close();
      }
    },
  },
  {
    test: 'Full',
    describe: (p) => {
      if (p.full === undefined) return { start: 'A full pool with a group waiting; attempt promotion', expected: 'Refuse' };
      const st = stateAt(p, p.full);
      return {
        start: `After ${rowName(p, p.full)}; attempt ${refsOf(st)[0]} promotion`,
        expected: `Refuse; ${countsWords(countsOf(st))}`,
      };
    },
    run: async (_h, client, plan) => {
      const at = need(plan.full, 'the worksheet never fills the pool while a group waits');
      const st = stateAt(plan, at);
      const s = await runUntil(client, plan.sheet, slug('full'), at);
      const a = await s.promote();
      const c = await s.counts();
      const ok = a.body.offer === null && nextPromotion(st).party === null && sameCounts(c, st);
      return { ok, evidence: `promotion ${a.status}: "${a.body.reason}"; counts ${slash(c)}` };
    },
  },
  {
    test: 'Repeat cancellation',
    describe: (p) => {
      if (!p.cancellation) return { start: 'A cancellation, retried', expected: 'Unchanged; no second release' };
      const at = Math.max(p.full ?? p.states.length - 1, p.cancellation.index);
      const op = p.sheet.transactions[p.cancellation.index]?.op;
      return {
        start: `After ${rowName(p, at)}; retry ${op}`,
        expected: `Unchanged (${slash(countsOf(stateAt(p, at)))}); no second release for ${p.cancellation.ref}`,
      };
    },
    run: async (_h, client, plan) => {
      const x = need(plan.cancellation, 'the worksheet cancels no reservation or hold');
      const at = Math.max(plan.full ?? plan.states.length - 1, x.index);
      const op = plan.sheet.transactions[x.index]?.op ?? '';
      const s = await runUntil(client, plan.sheet, slug('recancel'), at);
      const same = await s.cancel(x.ref, s.stepKey(op, x.step));
      const fresh = await s.cancel(x.ref, s.keyOf(`${op}-new-key`));
      const c = await s.counts();
      const subject = s.reservations.get(x.ref) ?? s.holds.get(x.ref) ?? s.entries.get(x.ref) ?? '';
      const history = await client.must<Array<{ to: string }>>('GET', s.path(`/history?subjectId=${subject}&limit=500`));
      const cancels = history.filter((h) => h.to.toUpperCase() === 'CANCELLED').length;
      const ok = same.status === 200 && fresh.status === 200 && sameCounts(c, stateAt(plan, at)) && cancels === 1;
      return {
        ok,
        evidence: `same key ${same.status}${same.replayed ? ' (replayed)' : ''}, new key ${fresh.status}; counts ${slash(c)}; ${x.ref} cancelled ${cancels}× in history`,
      };
    },
  },
  {
    test: 'Save and return',
    describe: (p) => ({
      start: `Any completed ledger step: after ${rowName(p, p.saveAt)}`,
      expected: 'Same seats, states, expiry and history',
    }),
    run: async (host, client, plan) => {
      const s = await runUntil(client, plan.sheet, slug('save'), plan.saveAt);
      const before = await snapshot(client, s);
      await host.restart();
      const after = await snapshot(await host.client(), s);
      const ok = before === after;
      const rows = (JSON.parse(before) as { history: unknown[] }).history.length;
      return {
        ok,
        evidence: ok
          ? `api restarted on the same saved data: reservations, queue, hold expiry, counts and ${rows} history rows identical`
          : 'state differs after the restart',
      };
    },
  },
  {
    test: 'Record access',
    describe: () => ({
      start: 'Separate permitted and unauthorized viewers',
      expected: 'Only authorized reads/changes according to your policy',
    }),
    run: async (host, client, plan) => {
      const at = plan.cancellation?.index ?? 0;
      const s = await runUntil(client, plan.sheet, slug('access'), Math.min(at, plan.states.length - 1));
      const anyRef = [...s.reservations.keys()][0];
      const stranger = await host.stranger();
      const anonymous = await fetch(`${host.baseUrl}${s.path('/queue')}`);
      const read = await stranger.call('GET', s.path('/reservations?limit=500'));
      const target = anyRef ? s.path(`/reservations/${s.reservations.get(anyRef) ?? ''}/cancel`) : s.path('/promotions');
      const change = await stranger.call('POST', target, {});
      const c = await s.counts();
      const want = stateAt(plan, Math.min(at, plan.states.length - 1));
      const ok = anonymous.status === 401 && read.status === 404 && change.status === 404 && sameCounts(c, want);
      return {
        ok,
        evidence: `anonymous read ${anonymous.status}; other venue's staff: read ${read.status}, change ${change.status}; counts unchanged ${slash(c)}`,
      };
    },
  },
];

/** The full-timestamp case promotes half a minute after its starting row, so the seconds must survive. */
function fullStampAt(plan: BoundaryPlan): number {
  const i = plan.beforeFirstHold ?? -1;
  // Before any row, the clock stands at the last waiting request's received time.
  const start = stateAt(plan, -1);
  const base = i < 0 ? Math.max(start.now, ...start.parties.map((p) => p.received ?? 0)) : (plan.states[i]?.now ?? 0);
  return base + 30_000;
}
