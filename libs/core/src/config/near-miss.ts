import { distance } from 'fastest-levenshtein';

/**
 * A variable that is one or two letters off an unset setting (DATABASE_UR, REDIS_ULR, database_url),
 * or undefined. Unnoticed, a misspelt DATABASE_URL started the app on the embedded database: the
 * evening's queue went to a folder on the host while the operator watched PostgreSQL. Short names
 * (PORT, HOST) are not compared: HOME is one letter off HOST.
 */
export function nearMiss(env: Record<string, string | undefined>, known: string[]): { given: string; meant: string } | undefined {
  const settings = new Set(known);
  let best: { given: string; meant: string; d: number } | undefined;
  for (const [given, value] of Object.entries(env)) {
    if (value === undefined || settings.has(given)) continue;
    for (const meant of known) {
      if (env[meant] !== undefined || meant.length < 7) continue;
      const d = distance(given.toUpperCase(), meant);
      if (d <= (meant.length >= 9 ? 2 : 1) && (!best || d < best.d)) best = { given, meant, d };
    }
  }
  return best && { given: best.given, meant: best.meant };
}
