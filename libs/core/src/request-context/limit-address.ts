import { isIP } from 'node:net';
import { requestContext } from './request-context.js';

/**
 * The caller's address as the per-address limits count it (failed sign-ins, token exchanges, public
 * joins): an IPv4 address as it is, also when it reaches an IPv6 socket as `::ffff:192.0.2.1`; an
 * IPv6 address by its /64, the block one subscriber is given (a home line, a phone, a cloud server).
 * Counted per full IPv6 address, a client changing the last 64 bits of its address at each request
 * met no per-address limit at all. Logs and the audit keep the full address.
 */
export function limitAddress(ip: string | undefined = requestContext.current()?.ip): string {
  if (ip === undefined || ip === '') return 'unknown';
  const address = ip.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names the interface, not the host
  if (isIP(address) !== 6) return ip;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(address: string): number[] {
  let s = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = s.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - front.length - back.length;
  return [...front, ...Array<string>(missing).fill('0'), ...back].map((g) => parseInt(g, 16));
}
