// The byte writer (src/emit/writer.ts): Latin-1 text under code page tables, and, without Node's
// Buffer, held to Node's own writers; kept because mutants of src/emit survived without them
// (`npm run mutation`, bench/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { ByteWriter, WEB_WRITERS } from '../../src/emit/writer.js';
import { hex } from '../support/hex.js';

describe('the byte writer without Node\'s Buffer (browsers, workers)', () => {
  // Node's own writers are the reference: the same bytes at the same offset, the same count.
  const node = (encoding: 'latin1' | 'utf8', text: string, offset: number, length: number) => {
    const buf = Buffer.alloc(16, 0xee);
    const n = buf.write(text, offset, length, encoding);
    return [n, hex(buf)];
  };
  const web = (encoding: 'latin1' | 'utf8', text: string, offset: number, length: number) => {
    const buf = new Uint8Array(16).fill(0xee);
    const n = WEB_WRITERS[encoding].call(buf, text, offset, length);
    return [n, hex(buf)];
  };

  it.each([
    ['latin1', 'aé\u00ff', 3],
    ['utf8', 'aé€😀', 2],
    ['utf8', 'a\ud800b', 0],
  ] as const)('writes %s %j as Node does', (encoding, text, offset) => {
    expect(web(encoding, text, offset, 16 - offset)).toEqual(node(encoding, text, offset, 16 - offset));
  });

  it('writes UTF-8 only within the room given', () => {
    expect(web('utf8', 'abcdef', 4, 3)).toEqual(node('utf8', 'abcdef', 4, 3));
    expect(web('utf8', 'xy', 1, 2)).toEqual(node('utf8', 'xy', 1, 2));
  });
});

describe('Latin-1 text under a code page table', () => {
  /** Latin-1 → code page tables that differ only at "é" (0xE9). */
  const table = (e: number) => Int16Array.from({ length: 256 }, (_, i) => (i === 0xe9 ? e : i));

  it('maps each text through the table it came with, also when the next text has another', () => {
    const out = new ByteWriter(false);
    out.latin1Text('é', table(0x82));
    out.latin1Text('aé', table(0x90));
    out.chars('\n');
    out.latin1Text('é', table(0x82));
    expect(hex(out.finish())).toBe('8261900a82');
  });
});
