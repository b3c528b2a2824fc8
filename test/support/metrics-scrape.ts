import request from 'supertest';
import type { TestApp } from './test-app.js';

/** Every sample of a Prometheus text exposition, by its series as written (`name{label="value"}`). */
export function samplesOf(text: string): Record<string, number> {
  const samples: Record<string, number> = {};
  for (const [, series, value] of text.matchAll(/^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/gm))
    samples[series ?? ''] = Number(value);
  return samples;
}

/** What a scrape of the app's /metrics reads, sent with the token. */
export async function scrape(t: TestApp, token: string): Promise<Record<string, number>> {
  return samplesOf(
    (
      await request(t.baseUrl)
        .get('/metrics')
        .set({ Authorization: `Bearer ${token}` })
        .expect(200)
    ).text,
  );
}

/** How much each series grew from one scrape to another (a series new in `after` grew from 0). */
export const growth = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
