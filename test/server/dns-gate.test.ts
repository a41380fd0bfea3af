// The webhook lookup gate on its own (dns-gate.ts): one lookup per account at a time, the account's
// turn kept until its lookup answers (its thread is busy until then, whatever the caller's
// deadline), a waiter that gives up taking no turn; and a send's attempt error when DNS is what ran out of time.
import { describe, expect, it } from 'vitest';
import { DnsTimeout, LookupGate, type HostAddress, type HostLookup } from '../../src/server/webhooks/dns-gate.js';
import { postWebhook } from '../../src/server/webhooks/post.js';

/** A lookup each call of which answers only when the test says so. */
function manualLookup() {
  const calls: Array<{ host: string; answer: (address: string) => void }> = [];
  const lookup: HostLookup = (host) => new Promise<HostAddress[]>((resolve) => {
    calls.push({ host, answer: (address) => resolve([{ address, family: 4 }]) });
  });
  return { lookup, calls };
}

const never: HostLookup = () => new Promise(() => {});

describe('LookupGate', () => {
  it("runs one lookup of an account at a time, its next once it answers, and another account's at once", async () => {
    const dns = manualLookup();
    const gate = new LookupGate(10_000, dns.lookup);
    const a1 = gate.lookup('alice', 'one.test');
    const a2 = gate.lookup('alice', 'two.test');
    const b1 = gate.lookup('bob', 'bob.test');
    await new Promise((r) => setImmediate(r));
    expect(dns.calls.map((c) => c.host)).toEqual(['one.test', 'bob.test']);
    expect(gate.pending('alice')).toEqual({ running: 1, waiting: 1 });
    dns.calls[1]!.answer('192.0.2.2');
    expect(await b1).toEqual([{ address: '192.0.2.2', family: 4 }]);
    dns.calls[0]!.answer('192.0.2.1');
    expect(await a1).toEqual([{ address: '192.0.2.1', family: 4 }]);
    await new Promise((r) => setImmediate(r));
    expect(dns.calls.map((c) => c.host)).toEqual(['one.test', 'bob.test', 'two.test']);
    dns.calls[2]!.answer('192.0.2.3');
    expect(await a2).toEqual([{ address: '192.0.2.3', family: 4 }]);
    await new Promise((r) => setImmediate(r));
    expect(gate.pending('alice')).toEqual({ running: 0, waiting: 0 });
  });

  it("keeps the account's turn past the caller's deadline until its lookup answers: the account's next lookup waits and times out saying why", async () => {
    const dns = manualLookup();
    const gate = new LookupGate(50, dns.lookup);
    await expect(gate.lookup('alice', 'slow.test')).rejects.toThrow(new DnsTimeout('DNS timeout: host slow.test did not resolve within 50 ms'));
    // The first lookup still holds its thread: the second is not started beside it.
    await expect(gate.lookup('alice', 'next.test')).rejects.toThrow(/^DNS timeout: host next\.test was not looked up within 50 ms \(this account's lookup before it has not answered\)$/);
    expect(dns.calls.map((c) => c.host)).toEqual(['slow.test']);
    dns.calls[0]!.answer('192.0.2.1');
    await new Promise((r) => setImmediate(r));
    expect(gate.pending('alice')).toEqual({ running: 0, waiting: 0 });
    const again = gate.lookup('alice', 'next.test');
    await new Promise((r) => setImmediate(r));
    dns.calls[1]!.answer('192.0.2.9');
    expect(await again).toEqual([{ address: '192.0.2.9', family: 4 }]);
  });

  it("uses a host's answer again for a while, and answers a host that ran past the deadline so at once, neither taking the account's turn", async () => {
    const dns = manualLookup();
    const gate = new LookupGate(50, dns.lookup, 60_000);
    const first = gate.lookup('alice', 'erp.test');
    await new Promise((r) => setImmediate(r));
    dns.calls[0]!.answer('192.0.2.1');
    expect(await first).toEqual([{ address: '192.0.2.1', family: 4 }]);
    await expect(gate.lookup('alice', 'dead.test')).rejects.toThrow('DNS timeout: host dead.test did not resolve within 50 ms');
    // dead.test's lookup still holds alice's turn: erp.test is answered from before, dead.test at once, no new lookup.
    expect(await gate.lookup('alice', 'erp.test')).toEqual([{ address: '192.0.2.1', family: 4 }]);
    await expect(gate.lookup('bob', 'dead.test')).rejects.toThrow(/^DNS timeout: host dead\.test did not resolve within 50 ms \(on a try less than 60000 ms ago\)$/);
    expect(dns.calls.map((c) => c.host)).toEqual(['erp.test', 'dead.test']);
    expect(gate.pending('alice')).toEqual({ running: 1, waiting: 0 });
    // Once it answers, it is a host like any other.
    dns.calls[1]!.answer('192.0.2.7');
    await new Promise((r) => setImmediate(r));
    expect(await gate.lookup('bob', 'dead.test')).toEqual([{ address: '192.0.2.7', family: 4 }]);
    expect(dns.calls).toHaveLength(2);
  });

  it('forgets what it knows of a host after a while', async () => {
    const dns = manualLookup();
    const gate = new LookupGate(10_000, dns.lookup, 1);
    const first = gate.lookup('alice', 'erp.test');
    await new Promise((r) => setImmediate(r));
    dns.calls[0]!.answer('192.0.2.1');
    await first;
    await new Promise((r) => setTimeout(r, 5));
    const again = gate.lookup('alice', 'erp.test');
    await new Promise((r) => setImmediate(r));
    expect(dns.calls).toHaveLength(2);
    dns.calls[1]!.answer('192.0.2.2');
    expect(await again).toEqual([{ address: '192.0.2.2', family: 4 }]);
  });

  it('lets a waiter that is aborted take no turn', async () => {
    const dns = manualLookup();
    const gate = new LookupGate(10_000, dns.lookup);
    const first = gate.lookup('alice', 'one.test');
    const stop = new AbortController();
    const gone = gate.lookup('alice', 'gone.test', stop.signal);
    const third = gate.lookup('alice', 'three.test');
    stop.abort(new Error('stopping'));
    await expect(gone).rejects.toThrow('stopping');
    expect(gate.pending('alice')).toEqual({ running: 1, waiting: 1 });
    await new Promise((r) => setImmediate(r));
    dns.calls[0]!.answer('192.0.2.1');
    await first;
    await new Promise((r) => setImmediate(r));
    expect(dns.calls.map((c) => c.host)).toEqual(['one.test', 'three.test']);
    dns.calls[1]!.answer('192.0.2.3');
    await third;
  });
});

describe('a webhook attempt whose host does not resolve in time', () => {
  const policy = { allowPrivate: true, httpHosts: ['stuck.test'] };

  it("says DNS timeout when the lookup's deadline passes", async () => {
    const gate = new LookupGate(50, never);
    const r = await postWebhook('http://stuck.test/hook', {}, '{}', policy, gate.for('alice'), 10_000);
    expect(r).toMatchObject({ statusCode: null, error: 'DNS timeout: host stuck.test did not resolve within 50 ms' });
  });

  it("says DNS timeout when the attempt's own timeout passes during the lookup", async () => {
    const gate = new LookupGate(10_000, never);
    const r = await postWebhook('http://stuck.test/hook', {}, '{}', policy, gate.for('alice'), 50);
    expect(r).toMatchObject({ statusCode: null, error: "DNS timeout: host stuck.test did not resolve within the attempt's 50 ms" });
  });
});
