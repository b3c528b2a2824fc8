import { validPartySize } from '@hostboard/allocator';
import { runUntil } from '../ledger.runner.js';
import { slug, type Case } from './case.js';
import { answer, code, emptyOf, slash } from './case-words.js';

/** The cases that start from an empty pool: no one seated, held or waiting. */
export const EMPTY_POOL_CASES: Case[] = [
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
];
