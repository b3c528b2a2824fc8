import type { RowResult } from './ledger.runner.js';
import { figuresText } from './row-check.js';

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/**
 * One line a row: PASS or FAIL, then the worksheet's figures, the policy's and the app's
 * (confirmed / held / available [queue]); under a failed row, what disagreed, naming both figures.
 */
export function formatRows(rows: RowResult[]): string {
  const lines = rows.map((r) => {
    const head = `${r.passed ? 'PASS' : 'FAIL'}  ${pad(r.op, 10)} ${r.time}  ${pad(r.action, 62)}`;
    const nums = `worksheet ${figuresText(r.expected)}  policy ${r.model ? figuresText(r.model) : '-'}  app ${figuresText(r.observed)}`;
    const issues = [
      ...r.worksheetIssues.map((i) => `worksheet arithmetic disagrees with the policy: ${i}`),
      ...r.appIssues.map((i) => `the app disagrees with the policy: ${i}`),
    ];
    const detail = r.passed ? [] : [...issues, ...(r.notes.length ? [r.notes.join('; ')] : [])];
    return `${head} ${nums}${detail.map((d) => `\n        ${d}`).join('')}`;
  });
  const passed = rows.filter((r) => r.passed).length;
  return `${lines.join('\n')}\n${passed} passed, ${rows.length - passed} failed`;
}
