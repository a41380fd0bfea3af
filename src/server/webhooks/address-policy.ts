// Which webhook addresses the service will post to (SSRF). A URL must be https, or http to a host
// the operator listed; its host must not be, or resolve to, a private, loopback, link-local,
// metadata or otherwise non-public address unless the operator allowed private addresses. Checked
// when an address is registered and again at every send, after DNS, on the address connected to.
// The lookup is the caller's (dns-gate.ts: one per account at a time, each within a deadline).
import { BlockList, isIP } from 'node:net';
import { DnsTimeout, type HostAddress, type HostLookup } from './dns-gate.js';
import { loneSurrogate } from '../well-formed.js';

export interface AddressPolicy {
  /** Private, loopback and link-local addresses allowed (BOBINA_WEBHOOKS_ALLOW_PRIVATE=1: tests, a shop LAN). */
  allowPrivate: boolean;
  /** Hosts that may be reached over plain http (BOBINA_WEBHOOKS_HTTP_HOSTS, comma-separated). */
  httpHosts: readonly string[];
  /** Endpoints one account may register (BOBINA_WEBHOOKS_MAX_ENDPOINTS; default 20, endpoints.ts). */
  maxEndpoints?: number;
}

export const STRICT_POLICY: AddressPolicy = { allowPrivate: false, httpHosts: [] };

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  // The 6to4 relay anycast: a packet to it goes on to whatever IPv4 address the relay decodes.
  ['192.88.99.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // ::, ::1 and the IPv4-compatible ::a.b.c.d (deprecated; a route to the IPv4 address inside).
  ['::', 96],
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT). (IPv4-mapped ::ffff:a.b.c.d is checked as its IPv4 address.)
  ['::ffff:0:0:0', 96],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['3fff::', 20], ['100::', 64],
  // Site-local (deprecated, RFC 3879, but still routed inside some sites as fc00::/7 is), the
  // dummy prefix (RFC 9780) and SRv6 segment identifiers (RFC 9602): none is reachable from the Internet.
  ['fec0::', 10], ['100:0:0:1::', 64], ['5f00::', 16],
  // NAT64 (well-known and local-use prefixes), 6to4, and the IETF protocol block with Teredo
  // (2001::/32): each carries an IPv4 address, or reaches one, through a translator or relay.
  ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 23],
  // The AWS IPv6 metadata address, in case it is not caught by the ranges above.
  ['fd00:ec2::254', 128],
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** True for an address a webhook must not reach without the operator's say-so (169.254.169.254, the cloud metadata address, included). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** Why a URL is refused, in one sentence for the caller (no secret in it: URLs are the partner's own). */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/**
 * C0 and C1 control characters and DEL. The URL parser drops tabs and line breaks and trims the
 * rest at the ends, so what was stored (and shown, and compared) would not be what is posted to;
 * PostgreSQL cannot store a NUL at all.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;


/** The URL's scheme and shape; throws AddressRefused. */
export function checkUrlShape(raw: string, policy: AddressPolicy): URL {
  const control = CONTROL.exec(raw);
  if (control) throw new AddressRefused(`a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) at offset ${control.index} is not accepted in a URL`);
  // The URL parser would write it as %EF%BF%BD: the URL checked and echoed would not be the one stored and posted to.
  const lone = loneSurrogate(raw);
  if (lone) throw new AddressRefused(`a lone surrogate (${lone.unit}) at offset ${lone.offset} is not well-formed Unicode, so it cannot be stored as sent`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefused('not an absolute URL');
  }
  if (raw.length > 2000) throw new AddressRefused('longer than 2000 characters');
  if (url.username || url.password) throw new AddressRefused('credentials in a URL are not accepted');
  if (url.hash) throw new AddressRefused('a URL with a #fragment is not accepted');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.protocol === 'http:') {
    if (!policy.httpHosts.includes(host)) throw new AddressRefused(`http is accepted only to hosts the operator allowed (BOBINA_WEBHOOKS_HTTP_HOSTS); use https`);
  } else if (url.protocol !== 'https:') {
    throw new AddressRefused(`scheme ${url.protocol} is not accepted; use https`);
  }
  return url;
}

/**
 * Resolves a host with `lookup` and returns its addresses, refusing it if any is private (unless
 * allowed). A DnsTimeout, or `signal`'s reason once aborted, is passed on as it is: no answer is not
 * an answer that the host does not exist.
 */
export async function resolveAllowed(hostname: string, policy: AddressPolicy, lookup: HostLookup, signal?: AbortSignal): Promise<HostAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, signal).catch((err: unknown) => {
    if (err instanceof DnsTimeout || signal?.aborted) throw err;
    throw new AddressRefused(`host ${host} does not resolve`);
  });
  if (addresses.length === 0) throw new AddressRefused(`host ${host} does not resolve`);
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) throw new AddressRefused(`host ${host} is (or resolves to) ${bad.address}, a private, loopback, link-local or reserved address`);
  }
  return addresses;
}

/** Registration check: shape, then DNS through `lookup`. Throws AddressRefused or DnsTimeout. */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy, lookup: HostLookup): Promise<URL> {
  const url = checkUrlShape(raw, policy);
  await resolveAllowed(url.hostname, policy, lookup);
  return url;
}
