/** How close one model's quotes came to the actual waits. */
export interface ModelStats {
  /** Entries this model quoted a wait for (and that were offered a table). */
  count: number;
  /** Mean of |quoted − actual|, minutes, one decimal; null with nothing to measure. */
  maeMinutes: number | null;
  /** Mean of (quoted − actual), minutes, one decimal: positive means quotes ran long. */
  biasMinutes: number | null;
  /** Share of quotes within ±5 minutes of the actual wait, in percent, one decimal. */
  within5: number | null;
  /** Share within ±10 minutes, in percent, one decimal. */
  within10: number | null;
}

const oneDecimal = (x: number): number => Math.round(x * 10) / 10;

/** The figures of one model over pairs of (quoted, actual) minutes; unquoted pairs are skipped. */
export function modelStats(pairs: Array<{ quoted: number | null; actual: number }>): ModelStats {
  const errors = pairs.filter((p): p is { quoted: number; actual: number } => p.quoted !== null).map((p) => p.quoted - p.actual);
  const n = errors.length;
  if (n === 0) return { count: 0, maeMinutes: null, biasMinutes: null, within5: null, within10: null };
  const share = (limit: number): number => oneDecimal((100 * errors.filter((e) => Math.abs(e) <= limit).length) / n);
  return {
    count: n,
    maeMinutes: oneDecimal(errors.reduce((s, e) => s + Math.abs(e), 0) / n),
    biasMinutes: oneDecimal(errors.reduce((s, e) => s + e, 0) / n),
    within5: share(5),
    within10: share(10),
  };
}
