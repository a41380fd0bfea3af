// Lowering against synthetic capability sets, built from scratch (no template extended): every
// combination of the capabilities a profile can lack, both outputs, and "removed" in the data.
// Each tag must become what the outcome table says, and nothing a profile lacks may reach the IR.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProfile, lower, parse, type Profile, type ProfileInput } from '../../src/index.js';
import { conteudo } from '../support/arbitraries.js';

interface Shape {
  output: 'escpos' | 'text';
  partial: boolean;
  condensed: boolean;
  /** Bold, underline, invert and size commands (up to 2 × 2), or none of them. */
  styles: boolean;
  codepage: boolean;
  qr: 'epson-gs-k' | 'bematech-gs-k-q' | 'daruma-esc-81' | 'raster' | 'text';
  image: 'gs-v-0' | 'esc-star-24';
  /** What the data says becomes of a missing capability: "removed", or lowering's default. */
  removed: boolean;
}

/** A whole profile from scratch with exactly the shape's capabilities. */
function synthetic(s: Shape): Profile {
  const base: ProfileInput = {
    id: 90,
    code: 'SYNTHETIC',
    nome: 'Sintética',
    printer: 'Synthetic',
    isGeneric: s.output === 'text',
    output: s.output,
    codepage: { encoding: s.output === 'text' ? 'utf8' : 'cp850', select: s.codepage && s.output === 'escpos' ? '1B 74 02' : null },
    feedLines: 2,
    qr: { command: s.output === 'text' ? 'text' : s.qr, moduleSize: 4, ecc: 'M', ...(s.qr === 'bematech-gs-k-q' ? { params: '08 00 01' } : {}) },
    sources: {},
    ...(s.removed
      ? { missing: { cut: 'removed', 'cut.partial': 'removed', condensed: 'removed', drawer: 'removed', bold: 'removed', underline: 'removed', invert: 'removed', size: 'removed' } }
      : {}),
  };
  if (s.output === 'text') return createProfile(base);
  return createProfile({
    ...base,
    commands: {
      init: '1B 40',
      alignLeft: '1B 61 00',
      alignCenter: '1B 61 01',
      alignRight: '1B 61 02',
      condensedOn: s.condensed ? '1B 4D 01' : null,
      condensedOff: s.condensed ? '1B 4D 00' : null,
      cutFull: '1D 56 41 00',
      cutPartial: s.partial ? '1D 56 42 00' : null,
      feed: '1B 64 n',
      drawer: '1B 70 00 32 C8',
      ...(s.styles && { boldOn: '1B 45 01', boldOff: '1B 45 00', underlineOn: '1B 2D 01', underlineOff: '1B 2D 00', invertOn: '1D 42 01', invertOff: '1D 42 00', size: '1D 21 wh' }),
    },
    ...(s.styles && { sizeMax: { width: 2, height: 2 } }),
    image: { command: s.image, maxBandBytes: 4096 },
  });
}

const shape = fc.record<Shape>({
  output: fc.constantFrom('escpos', 'text'),
  partial: fc.boolean(),
  condensed: fc.boolean(),
  styles: fc.boolean(),
  codepage: fc.boolean(),
  qr: fc.constantFrom('epson-gs-k', 'bematech-gs-k-q', 'daruma-esc-81', 'raster', 'text'),
  image: fc.constantFrom('gs-v-0', 'esc-star-24'),
  removed: fc.boolean(),
});

/** What each tag lowers to on a printer with these capabilities: IR ops and diagnostic codes. */
function expected(tag: string, p: Profile): { ops: string[]; codes: string[] } {
  const removed = (cap: keyof NonNullable<Profile['missing']>) => p.missing?.[cap] === 'removed';
  const cutFull = () => (p.caps.has('cut') ? { ops: ['cut full'], codes: [] } : removed('cut') ? { ops: [], codes: [] } : { ops: [], codes: ['lower/command-unsupported'] });
  switch (tag) {
    case 'textAlignCenter':
      return { ops: ['align center'], codes: [] };
    case 'paperFeed':
      return { ops: ['feed 2'], codes: [] };
    case 'paperCutFull':
      return cutFull();
    case 'paperCutPartial': {
      if (p.caps.has('cut.partial')) return { ops: ['cut partial'], codes: [] };
      if (removed('cut.partial')) return { ops: [], codes: [] };
      const full = cutFull();
      return { ops: full.ops, codes: ['lower/partial-cut-fallback', ...full.codes] };
    }
    case 'textCondensedOn':
      return p.caps.has('condensed') ? { ops: ['condensed on'], codes: [] } : removed('condensed') ? { ops: [], codes: [] } : { ops: [], codes: ['lower/condensed-unsupported'] };
    case 'textBoldOn':
    case 'textUnderlineOn':
    case 'textInvertOn': {
      const style = tag.slice(4, -2).toLowerCase() as 'bold' | 'underline' | 'invert';
      return p.caps.has(style) ? { ops: [`${style} on`], codes: [] } : removed(style) ? { ops: [], codes: [] } : { ops: [], codes: ['lower/style-unsupported'] };
    }
    case 'textSize width="3"':
      return p.caps.has('size') ? { ops: ['size 2x1'], codes: ['lower/text-size-clamped'] } : removed('size') ? { ops: [], codes: [] } : { ops: [], codes: ['lower/style-unsupported'] };
    case 'cashDrawerOpen':
      return p.caps.has('drawer') ? { ops: ['drawer'], codes: [] } : removed('drawer') ? { ops: [], codes: [] } : { ops: [], codes: ['lower/command-unsupported'] };
    default:
      throw new Error(tag);
  }
}

const describeOp = (op: ReturnType<typeof lower>['ops'][number]) =>
  op.op === 'align' ? `align ${op.align}` : op.op === 'cut' ? `cut ${op.partial ? 'partial' : 'full'}` : op.op === 'condensed' ? `condensed ${op.on ? 'on' : 'off'}` : op.op === 'feed' ? `feed ${op.lines}` : op.op === 'style' ? `${op.style} ${op.on ? 'on' : 'off'}` : op.op === 'size' ? `size ${op.width}x${op.height}` : op.op;

describe('lowering on synthetic capability sets', () => {
  it('turns every tag into what the outcome table says for the capabilities the profile really has', () => {
    fc.assert(
      fc.property(shape, fc.constantFrom('textAlignCenter', 'paperFeed', 'paperCutFull', 'paperCutPartial', 'textCondensedOn', 'cashDrawerOpen', 'textBoldOn', 'textUnderlineOn', 'textInvertOn', 'textSize width="3"'), (s, tag) => {
        const p = synthetic(s);
        const { ops, diagnostics } = lower(parse(`<${tag}>`).ast, p);
        expect({ ops: ops.map(describeOp), codes: diagnostics.map((d) => d.code) }).toEqual(expected(tag, p));
      }),
      { numRuns: 400 },
    );
  });

  it('gives plain-text output no printer capability, whatever else its data says', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const p = synthetic({ ...s, output: 'text' });
        expect([...p.caps]).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('lowers a QR code natively only where the profile has a native QR command, else as an image or a text line', () => {
    fc.assert(
      fc.property(shape, (s) => {
        const p = synthetic(s);
        const { ops, diagnostics } = lower(parse('<qrcode>abc</qrcode>').ast, p);
        const kinds = ops.map((o) => o.op);
        if (p.caps.has('qr.native')) expect(kinds).toEqual(['qr']);
        else if (p.qr.command === 'text') expect(kinds).toEqual(['text']);
        else {
          expect(kinds).toEqual(['image']);
          expect(diagnostics.map((d) => d.code)).toEqual(['lower/qr-raster-fallback']);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never puts an op for a missing capability into the IR, on any conteudo', () => {
    fc.assert(
      fc.property(shape, conteudo, (s, text) => {
        const p = synthetic(s);
        for (const op of lower(parse(text).ast, p).ops) {
          if (op.op === 'cut') expect(p.caps.has(op.partial ? 'cut.partial' : 'cut')).toBe(true);
          if (op.op === 'condensed') expect(p.caps.has('condensed')).toBe(true);
          if (op.op === 'drawer') expect(p.caps.has('drawer')).toBe(true);
          if (op.op === 'qr') expect(p.caps.has('qr.native')).toBe(true);
          if (op.op === 'image') expect(p.caps.has('image')).toBe(true);
          if (op.op === 'style') expect(p.caps.has(op.style)).toBe(true);
          if (op.op === 'size') {
            expect(p.caps.has('size')).toBe(true);
            expect(op.width).toBeLessThanOrEqual(p.sizeMax!.width);
            expect(op.height).toBeLessThanOrEqual(p.sizeMax!.height);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
