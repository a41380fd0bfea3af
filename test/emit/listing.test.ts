// One listing format: the compile listing is the disassembly of the emitted bytes, led by source
// spans, with one line per printed line, so a one-word edit of a receipt is a one-line diff.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, disassemble, formatDisassembly, listing, listProfiles, mnemonic } from '../../src/index.js';

const NFCE = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'nfce.txt'), 'utf8');
const codes = listProfiles().map((p) => p.code);
/** A listing line without its first column (span or offset). */
const body = (line: string) => line.replace(/^\S+\s+/, '');

describe('the compile listing', () => {
  it.each(codes)('splits and names every command of %s exactly as `bobina disasm` does', (p) => {
    const { bytes } = compile(NFCE, { printer: p });
    const compiled = listing(NFCE, { printer: p }).listing.trimEnd().split('\n');
    const disassembled = formatDisassembly(bytes, disassemble(bytes, { printer: p })).trimEnd().split('\n');
    expect(compiled.map(body)).toEqual(disassembled.map(body));
  });

  it('shows the MP-4200 job start as the two commands it is, in both', () => {
    const lines = listing('x', { printer: 'MAKER1MP4200' }).listing.split('\n');
    expect(lines[0]).toMatch(/^@1:1-1:1 +1D F9 20 31 +GS 0xF9 0x20 +select command language \(Bematech\)/);
    expect(lines[1]).toMatch(/^@1:1-1:1 +1B 40 +ESC @ +initialize printer/);
  });

  it('gives each printed line its own line and source span', () => {
    const lines = listing('<textAlignCenter>um\ndois\r\ntrês\n', { printer: 5 }).listing.split('\n');
    expect(lines.filter((l) => l.includes('  text  ')).map((l) => l.split(/\s+/)[0])).toEqual(['@1:18-2:1', '@2:1-3:1', '@3:1-4:1']);
  });

  it.each(codes)('changes one line for %s when one word of the receipt changes length', (p) => {
    const before = listing(NFCE, { printer: p }).listing.split('\n');
    const after = listing(NFCE.replace('PÃO DE QUEIJO MÉDIO', 'PÃOZINHO DE QUEIJO'), { printer: p }).listing.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line, i) => line !== before[i])).toHaveLength(1);
  });
});

// A command's mnemonic, as the listing prints it: kept because mutants of src/emit/listing.ts
// survived without it (`npm run mutation`, bench/MUTATION.md).
describe('mnemonic', () => {
  it.each([
    [[], ''],
    [[0x1b, 0x40], 'ESC @'],
    [[0x1d, 0x56, 0x42, 0x00], 'GS V 66 0'],
    [[0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x06], 'GS ( k 3 0 49 67 6'],
    [[0x1d, 0x28, 0x20], 'GS ( 32'],
    [[0x10, 0x04, 0x01], 'DLE 4 1'],
    [[0x1c, 0x2e], 'FS .'],
    [[0x0a], 'LF'],
    [[0x12], 'DC2'],
    [[0x0f], 'SI'],
    [[0x1b, 0x1b], 'ESC 27'],
    [[0x1b, 0x21, 0x21], 'ESC ! 33'],
    [[0x1b, 0x20], 'ESC 32'],
    [[0x1b, 0x7e], 'ESC ~'],
    [[0x1b, 0x7f], 'ESC 127'],
    [[0x41, 0x42], '0x41 B'],
    [[0x05], '0x05'],
    [[0xab, 0x0a], '0xAB 10'],
    [Array(12).fill(0x30), '0x30 0 48 48 48 48 48 48 48 48 48 48'],
    [Array(13).fill(0x30), '0x30 0 48 48 48 48 48 48 48 48 48 48 …'],
  ])('names %j as %j', (bytes, expected) => {
    expect(mnemonic(Uint8Array.from(bytes))).toBe(expected);
  });
});
