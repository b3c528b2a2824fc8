import { countsOf } from '@hostboard/allocator';
import { runUntil } from '../ledger.runner.js';
import { stateAt } from '../boundary-plan.js';
import { slug, type Case } from './case.js';
import { need, rowName, sameCounts, slash, snapshot } from './case-words.js';

/** The cases of what is recorded: a cancellation retried, the data after a restart, who may read it. */
export const RECORD_CASES: Case[] = [
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
