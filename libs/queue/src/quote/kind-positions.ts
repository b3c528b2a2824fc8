import { tableKind } from './quote.js';

/**
 * Where each active entry stands as its party was told: counted the way the quote counts, among the
 * earlier active parties of the same business day whose size fits the kind of table this party needs
 * (a couple is not behind a party of ten). `entries` is the active queue in waiting order, or a head
 * of it (every entry's earlier ones are then all there). Pool venues: the place in the list.
 */
export function kindPositions(
  entries: ReadonlyArray<{ id: string; partySize: number; businessDate: string }>,
  capacities: number[] | null,
): Map<string, number> {
  const positions = new Map<string, number>();
  entries.forEach((e, i) => {
    if (capacities === null) {
      positions.set(e.id, i + 1);
      return;
    }
    const kind = tableKind(e.partySize, capacities);
    let ahead = 0;
    for (let j = 0; j < i; j++) {
      const earlier = entries[j];
      if (earlier && earlier.businessDate === e.businessDate && (kind === null || earlier.partySize <= kind)) ahead++;
    }
    positions.set(e.id, ahead + 1);
  });
  return positions;
}
