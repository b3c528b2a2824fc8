// Statements per request, counted exactly on the wire: one more api process (API_PROCESSES=1, on
// PORT + 1) on the same database and Redis, its PostgreSQL connection through wire-counter.mjs's
// relay (PORT + 2). A fresh table venue, then `n` of each request one at a time: desk join (with an
// Idempotency-Key, as wrk sends it), table offer, accept, board read. The api's own timers may add
// a statement between requests now and then, hence the median, with the min and max beside it.
import { api, login } from './client.mjs';
import { tableVenues } from './phases.mjs';
import { DB_NAME, DIST, OWNER, PG_ADMIN, Proc, stackEnv, waitReady } from './stack.mjs';
import { wireCounter } from './wire-counter.mjs';

function spread(values) {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? null, min: s[0] ?? null, max: s.at(-1) ?? null };
}

export async function statementProbe({ port, relayPort, n = 20 }) {
  const target = new URL(PG_ADMIN);
  // A socket directory as the host (`postgres://user@%2Fvar%2Frun%2Fpostgresql/db`) is PostgreSQL's Unix socket.
  const host = decodeURIComponent(target.hostname);
  const pgPort = Number(target.port || 5432);
  const upstream = host.startsWith('/') ? { path: `${host}/.s.PGSQL.${pgPort}` } : { host, port: pgPort };
  const relay = await wireCounter(relayPort, upstream);
  const databaseUrl = `postgres://${target.username}@127.0.0.1:${relayPort}/${DB_NAME}`;
  const probe = new Proc('probe-api', `${DIST}/apps/api/src/main.js`, { ...stackEnv(), DATABASE_URL: databaseUrl, API_PROCESSES: '1', PORT: String(port), HOST: '127.0.0.1' });
  try {
    await waitReady(port, probe);
    const base = `http://127.0.0.1:${port}`;
    const call = api(base, await login(base, OWNER.email, OWNER.password));
    const [venueId] = await tableVenues(call, 1);
    const tables = [];
    for (let t = 0; t < n; t++) tables.push((await call('POST', `/v1/venues/${venueId}/tables`, { label: `P${t}`, capacity: 4 })).body.id);
    const counted = async (send, status) => {
      const before = relay.count.statements;
      const r = await send();
      if (r.status !== status) throw new Error(`statement probe: ${r.status} ${JSON.stringify(r.body)}`);
      return { r, statements: relay.count.statements - before };
    };
    const out = { join: [], offer: [], accept: [], board: [] };
    const entries = [];
    for (let i = 0; i < n; i++) {
      const k = `probe-${i}-${Math.random().toString(36).slice(2, 10)}`;
      const { r, statements } = await counted(() => call('POST', `/v1/venues/${venueId}/queue`, { name: 'Bench', partySize: 2, email: `${k}@b.test` }, { 'idempotency-key': k }), 201);
      out.join.push(statements);
      entries.push(r.body.entry);
    }
    const offers = [];
    for (const [i, e] of entries.entries()) {
      const { r, statements } = await counted(() => call('POST', `/v1/venues/${venueId}/offers`, { entryId: e.id, entryVersion: e.version, tableIds: [tables[i]] }), 201);
      out.offer.push(statements);
      offers.push(r.body.offer.id);
    }
    for (const id of offers) out.accept.push((await counted(() => call('POST', `/v1/venues/${venueId}/offers/${id}/accept`, {}), 200)).statements);
    for (let i = 0; i < n; i++) out.board.push((await counted(() => call('GET', `/v1/venues/${venueId}/board`), 200)).statements);
    return { requestsEach: n, join: spread(out.join), offer: spread(out.offer), accept: spread(out.accept), board: spread(out.board) };
  } finally {
    await probe.stop();
    await relay.close();
  }
}
