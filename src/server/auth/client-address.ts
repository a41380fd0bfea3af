// The client a failed-login counter is kept for: an IPv4 address as itself, an IPv6 one by its /64
// (one subscriber or one LAN is given a whole /64, so counting each address let one client take
// 2^64 counters, each with its full budget), and an IPv6 address that carries an IPv4 client as
// that IPv4 address: IPv4-mapped (::ffff:a.b.c.d, how a dual-stack socket shows one), NAT64's
// well-known prefix (64:ff9b::a.b.c.d, RFC 6052), IPv4-translated (::ffff:0:a.b.c.d, SIIT, RFC
// 2765) and the deprecated IPv4-compatible (::a.b.c.d). Keyed by their /64, the last three put
// every IPv4 client of an IPv6-only service in one bucket: 100 failures anywhere locked them all.
// :: and ::1 (and the rest of ::/104, whose "IPv4" would be 0.x.x.x, no client's) stay themselves.
//
// Before: clientKey('2001:db8:1:2:aaaa::1'), clientKey('64:ff9b::203.0.113.9'), clientKey('::1'), clientKey('fe80::1%eth0')
// After:  '2001:db8:1:2::/64',               '203.0.113.9',                    '::1',           'fe80:0:0:0::/64'
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
 * The /96 prefixes (their first six groups) whose last 32 bits are an IPv4 client's address.
 * A translator's own prefix (RFC 6052's network-specific prefixes, 64:ff9b:1::/48 of RFC 8215) is
 * not known here, and at lengths other than /96 the IPv4 is not in the last 32 bits anyway: its
 * clients are counted by their /64 (docs/operations.md, Failed-login limits).
 */
const EMBEDS_IPV4: Record<string, string> = {
  '0:0:0:0:0:ffff': 'IPv4-mapped, ::ffff:0:0/96 (RFC 4291): a dual-stack socket\'s IPv4 client',
  '64:ff9b:0:0:0:0': 'NAT64 well-known prefix, 64:ff9b::/96 (RFC 6052)',
  '0:0:0:0:ffff:0': 'IPv4-translated, ::ffff:0:0:0/96 (SIIT, RFC 2765)',
};

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
  const v4 = () => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
  const prefix = g.slice(0, 6).map((x) => x.toString(16)).join(':');
  if (Object.hasOwn(EMBEDS_IPV4, prefix)) return v4();
  // ::/96, IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): an IPv4 client if it is anything. Its
  // 0.0.0.0/8 holds :: (unspecified) and ::1 (loopback), which are no IPv4 client: each its own key.
  if (prefix === '0:0:0:0:0:0') return g[6]! >= 0x100 ? v4() : g[6] === 0 ? `::${g[7] === 0 ? '' : g[7]!.toString(16)}` : `::${g[6]!.toString(16)}:${g[7]!.toString(16)}`;
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
}
