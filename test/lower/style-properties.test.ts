// Text styles, as properties: any attribute values, any nesting with condensed, alignment, QR codes,
// barcodes and cuts, on every template. The compiler never throws; and every printed letter comes
// out, as the disassembler reads the bytes back, in exactly the styles and size the tags before it
// ask for (as far as the printer has them, sizes clamped to its largest): a style stays in force
// across lines, cuts, QR codes and barcodes, and a command that resets the printer's styles (the
// MP-4200's ESC ! for condensed, its ESC/Bema bracket around a native QR) is followed by them again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, disassemble, listProfiles, loadProfile, lower, parse, type Profile } from '../../src/index.js';
import { lowerRaw } from '../../src/lower/index.js';
import { withOverride } from '../../src/profiles/index.js';
import { attributeValue, conteudo } from '../support/arbitraries.js';

interface Look {
  bold: boolean;
  underline: boolean;
  invert: boolean;
  width: number;
  height: number;
}

const plain = (): Look => ({ bold: false, underline: false, invert: false, width: 1, height: 1 });

// Values in printable ASCII: a tag the parser refuses prints as text, and a character the printer's
// code page lacks is transliterated, sometimes to letters (ǈ → "Lj") that the looks below would
// have to count. Found by a random run: `<textSize width="<" width="ǈ">` on the MP-4200.
const sizeAttribute = fc
  .tuple(fc.constantFrom('width', 'height'), fc.oneof(fc.integer({ min: 1, max: 8 }).map(String), attributeValue))
  .map(([name, value]) => ` ${name}="${value.replace(/"/g, '').replace(/[^\x20-\x7e]/gu, '?')}"`);

/** Style tags (any attribute values on <textSize>) mixed with the tags they must live beside. */
const styled = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{1,6}$/) },
      { weight: 2, arbitrary: fc.constantFrom('\n', ' ') },
      { weight: 3, arbitrary: fc.constantFrom('<textBoldOn>', '<textBoldOff>', '<textUnderlineOn>', '<textUnderlineOff>', '<textInvertOn>', '<textInvertOff>') },
      { weight: 2, arbitrary: fc.array(sizeAttribute, { maxLength: 2 }).map((attrs) => `<textSize${attrs.join('')}>`) },
      fc.constantFrom('<textCondensedOn>', '<textCondensedOff>', '<textAlignCenter>', '<textAlignLeft>', '<paperCutPartial>'),
      fc.constantFrom('<qrcode>abc</qrcode>', '<barcode type="ean13" text="none">5901234123457</barcode>', '<barcode type="code128" text="none">AB12</barcode>'),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/** The look of each printed letter, from the tags (the AST) and what the profile can do. */
function expectedLooks(source: string, profile: Profile): Look[] {
  const out: Look[] = [];
  let look = plain();
  const max = profile.sizeMax ?? { width: 8, height: 8 };
  const STYLE = { boldOn: ['bold', true], boldOff: ['bold', false], underlineOn: ['underline', true], underlineOff: ['underline', false], invertOn: ['invert', true], invertOff: ['invert', false] } as const;
  for (const node of parse(source).ast.children) {
    if (node.type === 'command' && node.command in STYLE) {
      const [style, on] = STYLE[node.command as keyof typeof STYLE];
      if (profile.caps.has(style)) look = { ...look, [style]: on };
    } else if (node.type === 'textSize' && profile.caps.has('size')) {
      look = { ...look, width: Math.min(node.width, max.width), height: Math.min(node.height, max.height) };
    } else if (node.type === 'text') {
      for (const ch of node.value) if (/[a-z]/.test(ch)) out.push(look);
    }
  }
  return out;
}

/** The look of each printed letter, as the disassembler reads the bytes. */
function printedLooks(bytes: Uint8Array, profile: Profile): Look[] {
  const out: Look[] = [];
  let look = plain();
  for (const ins of disassemble(bytes, { printer: profile })) {
    const e = ins.effect;
    if (!e) continue;
    if (e.type === 'reset') look = plain();
    else if (e.type === 'bold' || e.type === 'underline' || e.type === 'invert') look = { ...look, [e.type]: e.on };
    else if (e.type === 'size') look = { ...look, width: e.width ?? look.width, height: e.height ?? look.height };
    else if (e.type === 'condensed' && e.mode) look = { ...look, ...e.mode };
    else if (e.type === 'text') for (const ch of e.text) if (/[a-z]/.test(ch)) out.push(look);
  }
  return out;
}

const printers: Profile[] = [
  ...listProfiles().filter((p) => p.output === 'escpos'),
  // The MP-4200's native QR inside its ESC/Bema bracket: each switch acts as ESC @.
  withOverride(loadProfile('MAKER1MP4200'), { qr: { command: 'bematech-gs-k-q' } }),
];

describe('text styles', () => {
  it('print every letter in the styles and size the tags before it ask for, on every printer', () => {
    fc.assert(
      // Printers by index: a counterexample names the printer, not its whole profile.
      fc.property(styled, fc.nat({ max: printers.length - 1 }), (source, i) => {
        const profile = printers[i]!;
        const { bytes } = compile(source, { printer: profile });
        expect(printedLooks(bytes, profile), `${profile.code} (${i})`).toEqual(expectedLooks(source, profile));
      }),
      {
        numRuns: 400,
        // Cases random runs find only now and then: a style before the MP-4200's ESC ! condensed, and around its bracketed QR.
        examples: [
          ['<textSize width="<" width="?">ab', 0],
          ['<textBoldOn><textUnderlineOn><textSize width="2" height="3"><textCondensedOn>ab<textCondensedOff>cd', 1],
          ['<textBoldOn><textInvertOn><textSize width="3"><textCondensedOn>a<qrcode>abc</qrcode>b', printers.length - 1],
        ],
      },
    );
  });

  it('never make the compiler throw or fail inside, with any attribute values and any content around them', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(styled, conteudo), { maxLength: 3 }), fc.nat({ max: listProfiles().length - 1 }), (parts, i) => {
        const { diagnostics } = compile(parts.join(''), { printer: listProfiles()[i]! });
        expect(diagnostics.filter((d) => d.code === 'lower/internal-error')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('are removed silently on the plain-text template, which prints the letters as written', () => {
    fc.assert(
      fc.property(styled, (source) => {
        const { bytes, diagnostics } = compile(source, { printer: 'GENERICA' });
        expect(diagnostics.filter((d) => d.code === 'lower/style-unsupported' || d.code === 'lower/text-size-clamped')).toEqual([]);
        // (A QR code prints its payload as a line there.)
        const printed = parse(source).ast.children.flatMap((n) => (n.type === 'text' ? [n.value] : n.type === 'qrcode' ? [n.data] : []));
        const letters = [...printed.join('')].filter((c) => /[a-z]/.test(c));
        expect([...Buffer.from(bytes).toString('utf8')].filter((c) => /[a-z]/.test(c))).toEqual(letters);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a raster barcode under a style', () => {
  it('prints its human-readable line in the plain font, the styles turned off around it and on again after', () => {
    const { ops } = lower(parse('<textBoldOn><textSize width="2"><barcode type="code128" text="both">AB12</barcode>x').ast, 'MAKER3DR800');
    const shape = ops.map((o) => (o.op === 'style' ? `${o.style} ${o.on ? 'on' : 'off'}` : o.op === 'size' ? `size ${o.width}x${o.height}` : o.op === 'text' ? JSON.stringify(o.text) : o.op));
    expect(shape).toEqual([
      'bold on', 'size 2x1',
      'bold off', 'size 1x1', '"AB12\\n"', 'bold on', 'size 2x1',
      'image',
      'bold off', 'size 1x1', '"AB12\\n"', 'bold on', 'size 2x1',
      '"x"',
    ]);
  });
});

describe('a raster barcode under a taller size', () => {
  it('prints its human-readable line at 1 × 1 too, and the height in force again after', () => {
    const { ops } = lower(parse('<textSize height="2"><barcode type="code128" text="below">AB12</barcode>').ast, 'MAKER3DR800');
    expect(ops.filter((o) => o.op === 'size' || o.op === 'text').map((o) => (o.op === 'size' ? `size ${o.width}x${o.height}` : JSON.stringify(o.text)))).toEqual(['size 1x2', 'size 1x1', '"AB12\\n"', 'size 1x2']);
  });
});

describe('<textSize> on a printer without sizes', () => {
  it('is ignored with a warning naming the tag, at its span', () => {
    const { diagnostics } = compile('<textSize width="2">x', { printer: { extends: 'MAKER5T20', commands: { size: null } } });
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/style-unsupported', 0, 20]]);
    expect(diagnostics[0]!.message).toMatch(/: <textSize> is ignored$/);
  });
});

describe('<textSize> past the largest size', () => {
  it('is clamped with a warning when only its height is too large', () => {
    const { ops, diagnostics } = lower(parse('<textSize width="2" height="5">').ast, 'MAKER3DR800');
    expect(ops.map((o) => (o.op === 'size' ? `${o.width}x${o.height}` : o.op))).toEqual(['2x2']);
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['lower/text-size-clamped', 'Daruma DR800 prints text at most 2 wide × 2 high: <textSize width="2" height="5"> prints 2 × 2'],
    ]);
  });

  it('is 8 × 8 on a profile that names no largest size', () => {
    const profile = { ...loadProfile('MAKER5T20'), sizeMax: undefined };
    const raw: Parameters<typeof lowerRaw>[2] = [];
    const ops = lowerRaw(parse('<textSize width="8" height="7">').ast, profile, raw);
    expect(ops.map((o) => (o.op === 'size' ? `${o.width}x${o.height}` : o.op))).toEqual(['8x7']);
    expect(raw).toEqual([]);
  });
});
