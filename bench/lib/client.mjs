// A small HTTP client and the statistics every figure is reported with.
import { performance } from 'node:perf_hooks';

export async function login(baseUrl, email, password) {
  const send = () => fetch(`${baseUrl}/v1/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  // Once more on a socket error: an api process that has just started may drop the first connection.
  const r = await send().catch(() => send());
  if (r.status !== 201) throw new Error(`login ${r.status} ${await r.text()}`);
  return (await r.json()).token;
}

export function api(baseUrl, token) {
  return async function call(method, path, body, headers = {}) {
    const t0 = performance.now();
    const send = () =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A kept-alive socket the server closed at the same moment fails the request before it is sent
    // (undici's "fetch failed"); that is the client's race, so send it once more on a fresh socket.
    const r = await send().catch((err) => (err?.cause?.code === 'UND_ERR_SOCKET' || err?.cause?.code === 'ECONNRESET' ? send() : Promise.reject(err)));
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null, ms: performance.now() - t0 };
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const r = (x) => (x === null ? null : Math.round(x * 100) / 100);
  return { n: s.length, p50: r(percentile(s, 50)), p99: r(percentile(s, 99)), max: r(s.at(-1) ?? null) };
}

/** Runs `task(i)` from `clients` concurrent loops for `seconds`; answers the rate and latencies. */
export async function closedLoop(clients, seconds, task) {
  const latencies = [];
  let errors = 0;
  let i = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const a = performance.now();
        const ok = await task(i++).catch(() => false);
        if (ok) latencies.push(performance.now() - a);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { perSecond: Math.round(latencies.length / elapsed), errors, latencyMs: stats(latencies) };
}
