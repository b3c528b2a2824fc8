import type { Reach } from '@hostboard/outbox';

/**
 * A queue row's place (its number in the list and the one its kind of table was told), and its reach
 * where the venue messages its parties (`reach` given; a seat pool sends none): the board's and the
 * queue's reads answer the same fields the same way.
 */
export function placeOf(
  id: string,
  i: number,
  kinds: ReadonlyMap<string, number>,
  reach: ReadonlyMap<string, Reach> | null,
): { position: number; kindPosition: number; reach?: Reach } {
  const place: { position: number; kindPosition: number; reach?: Reach } = {
    position: i + 1,
    kindPosition: kinds.get(id) ?? i + 1,
  };
  if (reach) place.reach = reach.get(id) ?? 'ok';
  return place;
}
