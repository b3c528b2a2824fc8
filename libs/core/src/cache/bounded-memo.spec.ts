import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('computes once per key, drops the oldest past its limit, and keeps nothing for a computation that throws', () => {
    const memo = new BoundedMemo<number>(2);
    let calls = 0;
    const square = (n: number) => () => {
      calls++;
      return n * n;
    };
    expect(memo.get('a', square(2))).toBe(4);
    expect(memo.get('a', square(99))).toBe(4);
    expect(calls).toBe(1);
    memo.get('b', square(3));
    memo.get('c', square(4)); // 'a' is dropped
    expect(memo.get('a', square(5))).toBe(25);
    expect(memo.get('c', square(99))).toBe(16);
    expect(() =>
      memo.get('d', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(memo.get('d', square(6))).toBe(36);
  });
});
