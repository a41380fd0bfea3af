// Properties the goldens cannot see, checked on generated input with fast-check.
import fc from 'fast-check';
import { readQr } from '../support/qr-reader.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS, compile, emit, listProfiles, loadProfile, lower, parse, type Capability, type CommandKey, type EmitRecord, type PrinterRef, type Profile } from '../../src/index.js';
import { conteudo, qrPayload } from '../support/arbitraries.js';
import { rasterImages, toRgba } from '../support/raster.js';

const codes = listProfiles().map((p) => p.code);
const escposCodes = listProfiles().flatMap((p) => (p.output === 'escpos' ? [p.code] : []));
/**
 * One of these printers, loaded when the property draws it, inside the test: a mutant in the code
 * that builds profiles then takes effect there (vitest.mutation.config.ts empties the caches before
 * each test).
 */
const printerOf = (refs: PrinterRef[]) => fc.constantFrom(...refs).map((ref) => loadProfile(ref));
const compileOps = (ops: Parameters<typeof emit>[0], p: Profile) => emit(ops, p).bytes;

/**
 * The capability each emitted record needs, by its machine key: a profile command needs the one
 * the command table gives it; QR, image and code page records need theirs.
 */
function needs(op: EmitRecord['op'], p: Profile): boolean {
  if (op in COMMANDS) {
    const cap = (COMMANDS[op as CommandKey] as { capability?: Capability }).capability;
    return cap === undefined || p.caps.has(cap);
  }
  if (op.startsWith('qr')) return p.caps.has('qr.native');
  if (op === 'raster' || op === 'band' || op === 'bandSpacing' || op === 'spacingReset') return p.image !== undefined && !p.caps.has('qr.native');
  if (op === 'codepage') return p.caps.has('codepage.select');
  return true;
}

describe('parse', () => {
  it('never throws, and every node span lies inside the input in order', () => {
    fc.assert(
      fc.property(fc.oneof(conteudo, fc.string({ unit: 'binary' })), (s) => {
        const { ast, diagnostics } = parse(s);
        let last = 0;
        for (const node of ast.children) {
          expect(node.start).toBeGreaterThanOrEqual(last);
          expect(node.end).toBeLessThanOrEqual(s.length);
          last = node.end;
        }
        for (const d of diagnostics) expect(d.span.start.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every character of text that holds no tag and no escape', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/<\/?[A-Za-z]|&(?:lt|amp);/.test(s)), (s) => {
        const text = parse(s).ast.children.map((n) => (n.type === 'text' ? n.value : '')).join('');
        expect(text).toBe(s);
      }),
    );
  });
});

describe('compile', () => {
  it('gives the same bytes and diagnostics for the same input, on every template', () => {
    fc.assert(
      fc.property(conteudo, printerOf(codes), (s, p) => {
        const a = compile(s, { printer: p });
        const b = compile(s, { printer: p });
        expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
        expect(a.diagnostics).toEqual(b.diagnostics);
      }),
      { numRuns: 200 },
    );
  });

  it('never lets text put a control byte on the wire: outside commands there is only LF, TAB and printable bytes', () => {
    fc.assert(
      fc.property(conteudo, printerOf(codes), (s, p) => {
        const { bytes, records } = compile(s, { printer: p, records: true });
        for (const r of records!) {
          if (r.op !== 'text' && r.op !== 'line') continue;
          for (const b of bytes.subarray(r.offset, r.offset + r.length)) {
            expect(b === 0x0a || b === 0x09 || (b >= 0x20 && b !== 0x7f)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('marks a text op latin1 only when it is, and writes the same bytes as without the mark', () => {
    const withoutMark = (p: Profile, s: string) => {
      const { ops } = lower(parse(s).ast, p);
      return compileOps(ops.map((op) => (op.op === 'text' ? { op: 'text', text: op.text, start: op.start, end: op.end } : op)), p);
    };
    fc.assert(
      fc.property(fc.oneof(conteudo, fc.string({ unit: 'binary' })), printerOf(codes), (s, p) => {
        const { ops } = lower(parse(s).ast, p);
        for (const op of ops) if (op.op === 'text' && op.latin1) expect(/[^\x00-\xff]/.test(op.text)).toBe(false);
        expect(compileOps(ops, p)).toEqual(withoutMark(p, s));
      }),
      { numRuns: 300 },
    );
  });

  it('only emits commands for capabilities the profile has, real or synthetic', () => {
    const synthetic: PrinterRef[] = [
      { extends: 'MAKER5T20', commands: { condensedOn: null, condensedOff: null, cutPartial: null } },
      { extends: 'MAKER4I9', qr: { command: 'raster' }, codepage: { select: null } },
      { extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81' } },
    ];
    fc.assert(
      fc.property(conteudo, printerOf([...escposCodes, ...synthetic]), (s, p) => {
        const { records } = compile(s, { printer: p, records: true });
        for (const r of records!) expect(needs(r.op, p), `${r.op} on ${p.printer}`).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('emits no ESC/POS at all for the generic template', () => {
    fc.assert(
      fc.property(conteudo, (s) => {
        const { bytes } = compile(s, { printer: 0 });
        for (const b of bytes) expect(b === 0x0a || b === 0x09 || b >= 0x20).toBe(true);
      }),
    );
  });

  it('prints every raster QR code so that a QR reader decodes its exact payload', () => {
    const targets = escposCodes.map((code) => loadProfile(code)).filter((p) => !p.caps.has('qr.native'));
    fc.assert(
      fc.property(qrPayload, fc.constantFrom(...targets), (payload, p) => {
        const { bytes, records, diagnostics } = compile(`<textAlignCenter>x\n<qrcode>${payload}</qrcode>`, { printer: p, records: true });
        expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const images = rasterImages(bytes, records!);
        expect(images).toHaveLength(1);
        const { data, width, height } = toRgba(images[0]!);
        const decoded = readQr(data, width, height);
        expect(decoded, `no QR found for ${JSON.stringify(payload)}`).not.toBeNull();
        expect(Buffer.from(decoded!.binaryData).toString('utf8')).toBe(payload);
      }),
      { numRuns: 40 },
    );
  });
});

describe('utf8Length without Node', () => {
  it('counts what Buffer.byteLength counts, for any string (lone surrogates included)', async () => {
    const { countUtf8 } = await import('../../src/text/utf8.js');
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => countUtf8(a + b) === Buffer.byteLength(a + b, 'utf8')), { numRuns: 2000 });
  });
});
