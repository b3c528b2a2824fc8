import { isIP } from 'node:net';

// Checks of the settings that name network peers (board origins, trusted proxies): each answers
// the first entry it cannot use, so start-up can name it.

/**
 * What is wrong with the first entry of BOARD_ALLOWED_ORIGINS, or undefined. The board socket
 * compares each entry with the browser's Origin header as a string, so an entry that is not exactly
 * an origin as a browser writes it (scheme, lower-case host, a port only when not the default, no
 * path, not even a trailing slash) would silently never match.
 */
export function badOrigin(entries: string[]): string | undefined {
  for (const entry of entries) {
    const expected = 'must be origins like https://board.example.com or http://10.0.0.5:8080, comma-separated';
    // Before any echo of the entry: it may hold a password.
    if (entry.includes('@')) return `has an entry with a user or password (an origin has none): ${expected}`;
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return `"${entry}" is not an origin: ${expected}`;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${entry}" is not an http or https origin: ${expected}`;
    if (url.origin !== entry) return `"${entry}" is not an origin as a browser sends it: write "${url.origin}"`;
  }
  return undefined;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * The first entry of TRUST_PROXY that names no proxy, or undefined: an address, `address/prefix`,
 * `address/netmask` or one of PROXY_NAMES each (what Fastify's proxy-addr compiles). `true` (Express's
 * "trust everyone") is not one: a hop count says how many proxies to trust.
 */
export function unknownProxyEntry(value: string): string | undefined {
  const v = value.trim();
  if (v === '' || v === 'none' || /^\d+$/.test(v)) return undefined;
  for (const entry of v.split(',').map((x) => x.trim())) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address = '', range, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return entry;
    if (range === undefined) continue;
    if (/^\d+$/.test(range) ? Number(range) <= (family === 4 ? 32 : 128) : family === 4 && isNetmask(range)) continue;
    return entry;
  }
  return undefined;
}

/** An IPv4 netmask: ones, then zeros. */
function isNetmask(mask: string): boolean {
  if (isIP(mask) !== 4) return false;
  const bits = mask.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const zeros = 0xffffffff - bits;
  return (zeros & (zeros + 1)) === 0;
}
