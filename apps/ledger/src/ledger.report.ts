import type { RowResult } from './ledger.runner.js';

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const q = (names: string[]): string => (names.length ? names.join(', ') : 'Empty');

/** One line a row: PASS or FAIL, then expected and observed confirmed / held / available and queue. */
export function formatRows(rows: RowResult[]): string {
  const lines = rows.map((r) => {
    const e = r.expected;
    const o = r.observed;
    const head = `${r.passed ? 'PASS' : 'FAIL'}  ${pad(r.op, 10)} ${r.time}  ${pad(r.action, 62)}`;
    const nums = `expected ${e.confirmed}/${e.held}/${e.available} [${q(e.queue)}]  observed ${o.confirmed}/${o.held}/${o.available} [${q(o.queue)}]`;
    return `${head} ${nums}${r.notes.length ? `\n        ${r.notes.join('; ')}` : ''}`;
  });
  const passed = rows.filter((r) => r.passed).length;
  return `${lines.join('\n')}\n${passed} passed, ${rows.length - passed} failed`;
}
