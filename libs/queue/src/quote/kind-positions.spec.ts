import { kindPositions } from './kind-positions.js';
import { tableQuote } from './quote.js';

const day = '2026-10-09';
const entry = (id: string, partySize: number, businessDate = day) => ({ id, partySize, businessDate });

describe('kindPositions: the position each party was told, for the whole queue', () => {
  it('counts, for each party, the earlier same-day parties that fit its kind of table', () => {
    const capacities = [2, 4, 6];
    const queue = [entry('four', 4), entry('two', 2), entry('six', 6), entry('three', 3), entry('otherTwo', 2)];
    expect(Object.fromEntries(kindPositions(queue, capacities))).toEqual({ four: 1, two: 1, six: 3, three: 3, otherTwo: 2 });
  });

  it('agrees with the join quote for every party (same arithmetic, counted for all at once)', () => {
    const capacities = [2, 2, 4, 6, 10];
    const sizes = [4, 10, 2, 3, 6, 8, 1, 2, 5];
    const queue = sizes.map((s, i) => entry(`e${i}`, s));
    const positions = kindPositions(queue, capacities);
    sizes.forEach((s, i) => expect(positions.get(`e${i}`)).toBe(tableQuote(s, sizes.slice(0, i), capacities, null).position));
  });

  it('counts only the same business day, everyone when nothing seats the party, and the list place for a pool', () => {
    const queue = [entry('yesterday', 2, '2026-10-08'), entry('a', 8), entry('b', 2)];
    expect(Object.fromEntries(kindPositions(queue, [2]))).toEqual({ yesterday: 1, a: 1, b: 1 });
    expect(Object.fromEntries(kindPositions([entry('a', 8), entry('huge', 50)], [2, 8]))).toEqual({ a: 1, huge: 2 });
    expect(Object.fromEntries(kindPositions(queue, null))).toEqual({ yesterday: 1, a: 2, b: 3 });
  });
});
