// The client a failed-login counter is kept for: an IPv4 address as itself, an IPv6 one by its /64
// (one subscriber or one LAN is given a whole /64, so counting each address let one client take
// 2^64 counters, each with its full budget), an IPv4-mapped IPv6 address (::ffff:a.b.c.d, how a
// dual-stack socket shows an IPv4 client) as the IPv4 address it is.
//
// Before: clientKey('2001:db8:1:2:aaaa::1'), clientKey('::ffff:203.0.113.9'), clientKey('fe80::1%eth0')
// After:  '2001:db8:1:2::/64',               '203.0.113.9',                  'fe80:0:0:0::/64'
import { isIP } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail taken as two groups). */
function groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * The key of `address` (fastify's request.ip) for the per-address counters. A zone id (`%eth0`) is
 * dropped: every link's link-local /64 is fe80::/64, so it says nothing more. Anything that is not an
 * IP address (a proxy's header taken with --trust-proxy) is kept as it is.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return address;
  const g = groups(bare);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}
