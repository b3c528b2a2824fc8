/**
 * Answers of a pure computation kept by key, at most `limit` of them, the oldest dropped first: for
 * values asked on every request that change rarely (wall times through an IANA zone, a formatted
 * stamp). Bounded so that keys which keep changing (dates, minutes) cannot grow it without end.
 */
export class BoundedMemo<V> {
  private readonly kept = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The answer kept for `key`, else `compute()`'s, kept. A computation that throws keeps nothing. */
  get(key: string, compute: () => V): V {
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, value);
    return value;
  }
}
