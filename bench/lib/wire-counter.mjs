// Exact statement counts without pg_stat_statements (which needs a server restart to load): a
// loopback TCP relay in front of PostgreSQL that reads the frontend side of the wire protocol and
// counts what the client asks to run, Query ('Q', the simple protocol: one per call) and Execute
// ('E', the extended protocol: one per statement run). Bytes pass through unchanged. Only the probe
// api goes through it, so the load phases' CPU figures carry no relay.
import net from 'node:net';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

export async function wireCounter(listenPort, target = { host: '127.0.0.1', port: 5432 }) {
  const count = { statements: 0 };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    upstream.pipe(client);
    let started = false;
    let skip = 0;
    let head = Buffer.alloc(0);
    client.on('data', (chunk) => {
      upstream.write(chunk);
      let i = 0;
      while (i < chunk.length) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i);
          skip -= n;
          i += n;
          continue;
        }
        // A message header: before startup, length + code (8 bytes); after, type + length (5 bytes).
        const need = started ? 5 : 8;
        const take = chunk.subarray(i, i + need - head.length);
        head = Buffer.concat([head, take]);
        i += take.length;
        if (head.length < need) break;
        if (!started) {
          const code = head.readInt32BE(4);
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) {
            started = true;
            skip = head.readInt32BE(0) - 8;
          }
        } else {
          const type = String.fromCharCode(head[0]);
          if (type === 'Q' || type === 'E') count.statements++;
          skip = head.readInt32BE(1) - 4;
        }
        head = Buffer.alloc(0);
      }
    });
  });
  await new Promise((res, rej) => server.once('error', rej).listen(listenPort, '127.0.0.1', res));
  return {
    count,
    /** The port it listens on (`listenPort` 0: one the system chose). */
    port: server.address().port,
    close: () =>
      new Promise((res) => {
        for (const s of sockets) s.destroy();
        server.close(() => res());
      }),
  };
}
