import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** What TRUST_PROXY's names stand for (as in proxy-addr, which Fastify applies to HTTP requests). */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function rangeOf(entry: string): Range {
  const [address = '', bits] = entry.split('/');
  const ip = ipaddr.parse(address);
  if (bits === undefined) return [ip, ip.kind() === 'ipv4' ? 32 : 128];
  return [ip, /^\d+$/.test(bits) ? Number(bits) : (ipaddr.IPv4.parse(bits).prefixLengthFromSubnetMask() ?? 32)];
}

function inRange(address: string, ranges: Range[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  return ranges.some(([range, bits]) => {
    if (ip.kind() === range.kind()) return ip.match(range, bits);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
      return (ip as ipaddr.IPv6).toIPv4Address().match(range, bits);
    if (ip.kind() === 'ipv4') return (ip as ipaddr.IPv4).toIPv4MappedAddress().match(range, bits);
    return false;
  });
}

/**
 * The client's address of a request that did not pass through Fastify (a board socket's upgrade), by
 * the rule Fastify applies to HTTP requests with the same TRUST_PROXY (`AppConfig.trustProxy`):
 * walking X-Forwarded-For back from the connection's address while each hop is a trusted proxy.
 */
export function forwardedAddress(
  remote: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: boolean | number | string[],
): string | undefined {
  if (remote === undefined || trust === false) return remote;
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const chain = [remote, ...forwarded];
  const ranges = Array.isArray(trust) ? trust.flatMap((e) => NAMED[e] ?? [e]).map(rangeOf) : [];
  const trusted = (address: string, hop: number): boolean =>
    trust === true || (typeof trust === 'number' ? hop < trust : inRange(address, ranges));
  for (let hop = 0; hop < chain.length - 1; hop++) if (!trusted(chain[hop], hop)) return chain[hop];
  return chain.at(-1);
}
