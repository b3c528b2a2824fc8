import { applyStep, countsOf, nextPromotion, waitingQueue } from '@hostboard/allocator';
import { LedgerSession, runUntil } from '../ledger.runner.js';
import { countsWords, stateAt } from '../boundary-plan.js';
import { slug, type Case } from './case.js';
import { betweenRows, need, promoteModel, promotionWords, refsOf, rowName, sameCounts, slash, waits } from './case-words.js';

/** The cases of who is promoted next: the oldest group that cannot fit, a withdrawal, the last seats, a full pool. */
export const QUEUE_ORDER_CASES: Case[] = [
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
];
