// auth/client-address.ts: the client a failed-login counter is kept for, from request.ip in every
// form Node and a proxy give it: IPv4 as itself, IPv6 by its /64, IPv4-mapped IPv6 as IPv4.
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
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('fe80::abcd:1%2')).toBe('fe80:0:0:0::/64');
    expect(clientKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(clientKey('1:2:3:4:5::')).toBe('1:2:3:4::/64');
  });

  it('counts an IPv4-mapped IPv6 address (a dual-stack socket\'s IPv4 client) as the IPv4 address', () => {
    for (const a of ['::ffff:203.0.113.9', '::FFFF:203.0.113.9', '::ffff:cb00:7109', '0:0:0:0:0:ffff:203.0.113.9', '0000:0000:0000:0000:0000:ffff:cb00:7109']) {
      expect(clientKey(a), a).toBe('203.0.113.9');
    }
    // Not mapped: IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) are IPv6 addresses of ::/64.
    expect(clientKey('::203.0.113.9')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:0:203.0.113.9')).toBe('0:0:0:0::/64');
  });

  it('keeps what is not an IP address (a proxy header) as it is', () => {
    for (const a of ['unknown', '', 'fe80::zz', '203.0.113.256']) expect(clientKey(a)).toBe(a);
  });

  it('gives the address Node shows for a real IPv6 client its /64', async () => {
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
      expect(clientKey(await seen)).toBe('0:0:0:0::/64');
      client.destroy();
    } finally {
      server.close();
    }
  });
});
