import { quoteText, tableKind, tableQuote } from './quote.js';

describe('the position quote', () => {
  // Tables of 2, 2, 4 and 6 seats, and an approved combination of the 4 and the 6 seating 10.
  const capacities = [2, 2, 4, 6, 10];

  it('the kind is the smallest table or combination that seats the party', () => {
    expect(tableKind(1, capacities)).toBe(2);
    expect(tableKind(2, capacities)).toBe(2);
    expect(tableKind(3, capacities)).toBe(4);
    expect(tableKind(5, capacities)).toBe(6);
    expect(tableKind(7, capacities)).toBe(10);
    expect(tableKind(10, capacities)).toBe(10);
    expect(tableKind(11, capacities)).toBeNull();
    expect(tableKind(1, [])).toBeNull();
  });

  it('a couple behind a party of ten is not counted as blocked by it', () => {
    expect(tableQuote(2, [10], capacities, 20)).toEqual({ kind: 2, ahead: 0, position: 1, waitMinutes: 20 });
  });

  it('a party of ten behind a couple counts the couple: the couple could take its table', () => {
    expect(tableQuote(10, [2], capacities, 20)).toEqual({ kind: 10, ahead: 1, position: 2, waitMinutes: 40 });
  });

  it('counts earlier parties whose size fits the kind, and multiplies position by the turn', () => {
    // Earlier: 4, 10, 2, 3, 6. A party of 3 needs a 4-top: the 4, the 2 and the 3 could take it.
    expect(tableQuote(3, [4, 10, 2, 3, 6], capacities, 25)).toEqual({ kind: 4, ahead: 3, position: 4, waitMinutes: 100 });
  });

  it('when nothing seats the party, every earlier party counts', () => {
    expect(tableQuote(11, [4, 10, 2], capacities, 20)).toEqual({ kind: null, ahead: 3, position: 4, waitMinutes: 80 });
    expect(tableQuote(2, [4, 2], [], 15)).toEqual({ kind: null, ahead: 2, position: 3, waitMinutes: 45 });
  });

  it('without a running window there is no wait to quote', () => {
    expect(tableQuote(2, [2], capacities, null)).toEqual({ kind: 2, ahead: 1, position: 2, waitMinutes: null });
  });

  it('words the quote as the spec does, always approximate', () => {
    expect(quoteText(3, 2, 50)).toBe('position 3 (2 ahead), quoted ~50 min (approx)');
    expect(quoteText(1, 0, null)).toBe('position 1 (0 ahead)');
    // A table venue with no wait to quote still says its position is approximate.
    expect(quoteText(1, 0, null, true)).toBe('position 1 (0 ahead) (approx)');
  });
});
