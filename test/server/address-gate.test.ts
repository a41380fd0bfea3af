// The webhook sender's per-address gate on its own: at most `limit` holders per address, the next
// waiter let in as one leaves, a waiter that gives up (its attempt's timeout) taking no slot.
import { describe, expect, it } from 'vitest';
import { AddressGate } from '../../src/server/webhooks/address-gate.js';

describe('AddressGate', () => {
  it('lets `limit` in per address, then one more each time one leaves, in the order they came', async () => {
    const gate = new AddressGate(2);
    const a1 = await gate.acquire('10.0.0.1');
    const a2 = await gate.acquire('10.0.0.1');
    const order: string[] = [];
    const third = gate.acquire('10.0.0.1').then((r) => (order.push('third'), r));
    const fourth = gate.acquire('10.0.0.1').then((r) => (order.push('fourth'), r));
    // Another address is not held up.
    const other = await gate.acquire('10.0.0.2');
    expect(gate.inFlight('10.0.0.1')).toBe(2);
    a1();
    a1(); // a second call frees nothing more
    const r3 = await third;
    expect(order).toEqual(['third']);
    expect(gate.inFlight('10.0.0.1')).toBe(2);
    a2();
    const r4 = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    r3();
    r4();
    other();
    expect(gate.inFlight('10.0.0.1')).toBe(0);
    expect(gate.inFlight('10.0.0.2')).toBe(0);
  });

  it('drops a waiter whose signal aborts, with the signal\'s reason, and gives its turn to the next', async () => {
    const gate = new AddressGate(1);
    const held = await gate.acquire('10.0.0.1');
    const giveUp = new AbortController();
    const gaveUp = gate.acquire('10.0.0.1', giveUp.signal);
    const next = gate.acquire('10.0.0.1');
    giveUp.abort(new Error('timeout'));
    await expect(gaveUp).rejects.toThrow('timeout');
    held();
    const r = await next;
    expect(gate.inFlight('10.0.0.1')).toBe(1);
    // A signal already aborted is refused at once when it would have to wait.
    await expect(gate.acquire('10.0.0.1', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    r();
    expect(gate.inFlight('10.0.0.1')).toBe(0);
  });
});
