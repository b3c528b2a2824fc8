import { readFileSync } from 'node:fs';
import { ErrorCode, httpStatusOf } from '@hostboard/core';

/** docs/errors.md lists every code the app can emit, with its HTTP status. */
describe('error catalogue (docs/errors.md)', () => {
  const doc = readFileSync('docs/errors.md', 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1] ?? '', Number(m[2])] as const));

  it.each(Object.values(ErrorCode))('documents %s with its status', (code) => {
    expect(rows.get(code)).toBe(httpStatusOf(code));
  });

  it('documents no code the app does not have', () => {
    expect([...rows.keys()].sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
