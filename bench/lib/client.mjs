// A small HTTP client and the statistics every figure is reported with.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export async function login(baseUrl, email, password) {
  const send = () => fetch(`${baseUrl}/v1/auth/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  // Once more on a socket error: an api process that has just started may drop the first connection.
  const r = await send().catch(() => send());
  if (r.status !== 201) throw new Error(`login ${r.status} ${await r.text()}`);
  return (await r.json()).token;
}

/**
 * Keep-alive sockets for every call: node:http rather than fetch, whose per-request cost in this
 * process (about 1.8 ms of CPU per offer in the bench's offer phase) came out of the same two cores
 * the api and PostgreSQL are measured on. No cap on sockets, so a storm of 200 is 200 at once.
 */
const agent = new http.Agent({ keepAlive: true });

function send(baseUrl, method, path, headers, payload) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { method, agent, headers: payload === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function api(baseUrl, token) {
  return async function call(method, path, body, headers = {}) {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const all = { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
    // A kept-alive socket the server closed at the same moment fails the request before it is sent;
    // that is the client's race, so send it once more (the agent then opens a fresh socket).
    const r = await send(baseUrl, method, path, all, payload).catch((err) =>
      err?.code === 'ECONNRESET' || err?.code === 'EPIPE' ? send(baseUrl, method, path, all, payload) : Promise.reject(err),
    );
    return { status: r.status, body: r.text ? JSON.parse(r.text) : null, ms: performance.now() - t0 };
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
