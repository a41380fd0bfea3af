// auth/client-address.ts: the client a failed-login counter is kept for, from request.ip in every
// form Node and a proxy give it: IPv4 as itself, IPv6 by its /64, an IPv6 address carrying an IPv4
// client (mapped, NAT64, SIIT, IPv4-compatible) as that IPv4 address, :: and ::1 as themselves.
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/server/auth/client-address.js';

describe('clientKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 address by its /64, whatever its spelling: compressed, full, upper case, with a zone id', () => {
    const same = ['2001:db8:1:2::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:0db8:0001:0002:0000:0000:0000:0001', '2001:DB8:1:2::FFFF', '2001:db8:1:2:0:0:0:0', '2001:db8:1:2::1.2.3.4'];
    for (const a of same) expect(clientKey(a), a).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::2:0:0:1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('fe80::abcd:1%2')).toBe('fe80:0:0:0::/64');
    expect(clientKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(clientKey('1:2:3:4:5::')).toBe('1:2:3:4::/64');
  });

  it('counts an IPv4-mapped IPv6 address (a dual-stack socket\'s IPv4 client) as the IPv4 address', () => {
    for (const a of ['::ffff:203.0.113.9', '::FFFF:203.0.113.9', '::ffff:cb00:7109', '0:0:0:0:0:ffff:203.0.113.9', '0000:0000:0000:0000:0000:ffff:cb00:7109']) {
      expect(clientKey(a), a).toBe('203.0.113.9');
    }
  });

  it('counts an IPv4 client behind NAT64 or SIIT, or IPv4-compatible, as its IPv4 address, not as one /64 for all of IPv4', () => {
    // The probe: each of these was '64:ff9b:0:0::/64' or '0:0:0:0::/64', one bucket for every IPv4 client.
    for (const a of ['64:ff9b::203.0.113.9', '64:FF9B::cb00:7109', '64:ff9b:0:0:0:0:203.0.113.9', '0064:ff9b:0000:0000:0000:0000:cb00:7109']) expect(clientKey(a), a).toBe('203.0.113.9');
    expect(clientKey('64:ff9b::198.51.100.7')).toBe('198.51.100.7');
    for (const a of ['::ffff:0:203.0.113.9', '0:0:0:0:ffff:0:cb00:7109', '::FFFF:0:CB00:7109']) expect(clientKey(a), a).toBe('203.0.113.9');
    for (const a of ['::203.0.113.9', '::cb00:7109', '0:0:0:0:0:0:203.0.113.9']) expect(clientKey(a), a).toBe('203.0.113.9');
    expect(clientKey('::1.0.0.0')).toBe('1.0.0.0');
    // Only the /96 forms: anything else under those prefixes is an IPv6 address, by its /64.
    expect(clientKey('64:ff9b::1:203.0.113.9')).toBe('64:ff9b:0:0::/64');
    expect(clientKey('64:ff9b:1::203.0.113.9')).toBe('64:ff9b:1:0::/64');
    expect(clientKey('0:0:0:0:1:ffff:cb00:7109')).toBe('0:0:0:0::/64');
  });

  it('keeps :: and ::1 (and the rest of ::/104, no IPv4 client) as themselves, apart from each other and from ::a.b.c.d', () => {
    // The probe: ::1 was '0:0:0:0::/64', the bucket of every ::a.b.c.d and ::ffff:0:a.b.c.d.
    expect(clientKey('::1')).toBe('::1');
    expect(clientKey('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(clientKey('::1%lo')).toBe('::1');
    expect(clientKey('::')).toBe('::');
    expect(clientKey('::0.0.0.0')).toBe('::');
    expect(clientKey('::2')).toBe('::2');
    expect(clientKey('::0.1.0.0')).toBe('::1:0');
    expect(clientKey('::0.255.255.255')).toBe('::ff:ffff');
  });

  it('keeps what is not an IP address (a proxy header) as it is', () => {
    for (const a of ['unknown', '', 'fe80::zz', '203.0.113.256']) expect(clientKey(a)).toBe(a);
  });

  it('gives the address Node shows for a real IPv6 loopback client its own key', async () => {
    const { createServer, connect } = await import('node:net');
    const server = createServer();
    const seen = new Promise<string>((resolve) => server.once('connection', (s) => { resolve(s.remoteAddress ?? ''); s.destroy(); }));
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return; // no IPv6 loopback on this machine
    try {
      const port = (server.address() as { port: number }).port;
      const client = connect(port, '::1');
      client.on('error', () => {});
      expect(clientKey(await seen)).toBe('::1');
      client.destroy();
    } finally {
      server.close();
    }
  });
});
