import { DateTime } from 'luxon';
import { applyStep, countsOf, type ModelState } from '@hostboard/allocator';
import { runUntil, type LedgerSession } from '../ledger.runner.js';
import { countsWords, modelAt, stateAt, type BoundaryPlan } from '../boundary-plan.js';
import { localTime } from '../worksheet-model.js';
import { slug, type Case } from './case.js';
import { answer, betweenRows, code, expiryRows, need, promoteModel, rowName, sameCounts, slash } from './case-words.js';

/** The cases of a hold's end: acceptance at the boundary, the full timestamp, an expiry repeated. */
export const EXPIRY_CASES: Case[] = [
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
];

/**
 * The full-timestamp case promotes half a minute after its starting row, so the seconds must survive.
 * A row that already carries seconds (10:02:30) would put that promotion on a whole minute (10:03),
 * where an app that drops the seconds passes: the next offset that leaves seconds on both the
 * promotion and its expiry is taken instead.
 */
function fullStampAt(plan: BoundaryPlan): number {
  const i = plan.beforeFirstHold ?? -1;
  // Before any row, the clock stands at the last waiting request's received time.
  const start = stateAt(plan, -1);
  const base = i < 0 ? Math.max(start.now, ...start.parties.map((p) => p.received ?? 0)) : (plan.states[i]?.now ?? 0);
  const hold = plan.sheet.policy.holdSeconds * 1000;
  const hasSeconds = (ms: number): boolean => DateTime.fromMillis(ms, { zone: plan.sheet.timeZone }).second !== 0;
  const offset = [30, 15, 45, 20, 40, 10, 50].find((s) => hasSeconds(base + s * 1000) && hasSeconds(base + s * 1000 + hold));
  return base + (offset ?? 30) * 1000;
}
