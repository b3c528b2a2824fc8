import ipaddr from 'ipaddr.js';
import { requestContext } from './request-context.js';

/**
 * The caller's address as the per-address limits count it (failed sign-ins, token exchanges, public
 * joins): an IPv4 address as it is, also when it reaches an IPv6 socket as `::ffff:192.0.2.1`; an
 * IPv6 address by its /64, the block one subscriber is given (a home line, a phone, a cloud server).
 * Counted per full IPv6 address, a client changing the last 64 bits of its address at each request
 * met no per-address limit at all. Logs and the audit keep the full address. Parsed by ipaddr.js
 * (already Fastify's, through proxy-addr).
 */
export function limitAddress(ip: string | undefined = requestContext.current()?.ip): string {
  if (ip === undefined || ip === '') return 'unknown';
  const address = ip.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names the interface, not the host
  if (!ipaddr.IPv6.isValid(address)) return ip;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
