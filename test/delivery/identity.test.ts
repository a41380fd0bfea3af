// The bytes that reach the printer are exactly compile()'s, for every fixture and every template,
// printed once each, and confirmed by the printer where the profile can confirm.
import { describe, expect, it } from 'vitest';
import { compile, listProfiles } from '../../src/index.js';
import { deliver, openPrinter } from '../../src/delivery/index.js';
import { FIXTURES, fixture, virtualPrinter } from './helpers.js';

describe.each(listProfiles().map((p) => p.code))('delivery to a virtual %s', (code) => {
  it('prints every fixture once, byte for byte what compile() made, each a complete job', async () => {
    const vp = await virtualPrinter({ printer: code });
    const expected: Uint8Array[] = [];
    for (const [i, name] of FIXTURES.entries()) {
      const { bytes } = compile(fixture(name), { printer: code });
      expected.push(bytes);
      const result = await deliver(openPrinter(vp.address, code), { id: `${code}-${i}`, token: 't1', bytes });
      expect(result).toMatchObject({ outcome: 'completed', written: bytes.length, confirmacao: code === 'MAKER5T20' ? 'printer' : 'sent' });
    }
    expect(vp.jobs).toHaveLength(FIXTURES.length);
    for (const [i, job] of vp.jobs.entries()) {
      expect(Buffer.from(job.bytes).equals(Buffer.from(expected[i]!)), `${FIXTURES[i]} reached the printer changed`).toBe(true);
      expect(job).toMatchObject({ complete: true, truncated: false, endedBy: code === 'MAKER5T20' ? 'confirm' : 'close' });
    }
  });
});
