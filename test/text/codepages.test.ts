// The generated code page file against iconv-lite, the library it came from: regenerate with
// `npm run codepages` if iconv-lite changes a mapping. Pages outside the file still work, through
// iconv-lite itself.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { clearCaches } from '../../src/caches.js';
import { PACKED_CODEPAGES } from '../../src/text/codepages.generated.js';
import { builtinChars, codepage, codepageChars, codepageTable, decodeBytes } from '../../src/text/codepage.js';
import { packHigh, unpackPage } from '../../src/text/packed-page.js';
import { compile, loadProfile, ProfileError } from '../../src/index.js';
import { hex } from '../support/hex.js';

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

/** Every single-byte encoding iconv-lite has, by name. */
function singleBytePages(): string[] {
  iconv.getCodec('cp850'); // loads iconv-lite's table of encodings
  return Object.entries(iconv.encodings as Record<string, unknown>).filter(([, v]) => (v as { type?: string })?.type === '_sbcs').map(([name]) => name);
}

describe('code pages', () => {
  it.each(Object.keys(PACKED_CODEPAGES))('%s matches iconv-lite byte for byte', (name) => {
    expect(builtinChars(name)).toBe(iconv.decode(everyByte, name));
  });

  it('packs any high half so that it unpacks to itself, in printable ASCII without quote or backslash', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 128, maxLength: 128 }), (codes) => {
        const high = String.fromCharCode(...codes);
        const packed = packHigh(high);
        expect(packed).toMatch(/^[\x20-\x7e]*$/);
        expect(packed).not.toMatch(/["\\]/);
        expect(unpackPage(packed)).toBe(String.fromCharCode(...Array.from({ length: 128 }, (_, b) => b)) + high);
      }),
    );
  });

  it('writes a distance as one character from " " (−48) to "}" (+45) but for `"` and `\\`, otherwise "~" and the code unit', () => {
    // One character after byte 0x7F: its distance from U+007F.
    const packed = (distance: number) => packHigh(String.fromCharCode(0x7f + distance));
    expect([-48, 0, 1, 45].map(packed)).toEqual([' ', 'P', 'Q', '}']);
    expect(packed(-49)).toBe('~004e');
    expect(packed(46)).toBe('~00ad'); // "~" itself is the escape
    expect(packed(0x22 - 80)).toBe('~0051'); // '"'
    expect(packed(0x5c - 80)).toBe('~008b'); // '\\'
    expect(packHigh('\u2500\u2501')).toBe('~2500Q');
  });

  it('takes any other single-byte page from iconv-lite', () => {
    expect(builtinChars('iso-8859-2')).toBeUndefined();
    for (const name of ['constructor', '__proto__', 'toString']) expect(builtinChars(name)).toBeUndefined();
    expect(codepageChars('ISO-8859-2')).toBe(iconv.decode(everyByte, 'iso-8859-2'));
    const { bytes, diagnostics } = compile('Łódź', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'iso-8859-2' } } });
    expect(diagnostics).toEqual([]);
    expect([...bytes.subarray(5, 9)]).toEqual([...iconv.encode('Łódź', 'iso-8859-2')]);
  });

  it('refuses unknown and multi-byte pages, and a profile naming one, as a ProfileError', () => {
    expect(() => codepage('cp99999')).toThrow('unknown code page "cp99999"');
    expect(() => codepage('shift_jis')).toThrow('not a single-byte code page');
    for (const encoding of ['cp99999', 'constructor', '__proto__', 'toString']) {
      expect(() => loadProfile({ extends: 'MAKER5T20', codepage: { encoding } })).toThrow(ProfileError);
      expect(() => loadProfile({ extends: 'MAKER5T20', codepage: { encoding } })).toThrow(`unknown code page "${encoding}"`);
    }
  });

  it('never encodes a letter as a C0 byte or DEL, on any single-byte page iconv-lite has: TCVN\'s Ự (DC2) counts as absent', () => {
    const pages = singleBytePages();
    expect(pages.length).toBeGreaterThan(50);
    expect(pages).toEqual(expect.arrayContaining(['tcvn', 'viscii']));
    for (const name of pages) {
      const { table } = codepage(name);
      for (let c = 0; c < 65536; c++) {
        const b = table![c]!;
        if (b >= 0 && (b < 0x20 || b === 0x7f)) expect(c, `${name}: U+${c.toString(16)} → ${b}`).toBe(b);
      }
    }
    // Never the command byte. TCVN has combining tone marks, so it writes Ự as Ư (A6) and a
    // combining dot below (B4), Ú as U and a combining acute (B3), silently: the same text. VISCII
    // has none: its letters on control bytes print as their nearest letter, with a warning.
    const tcvn = compile('Ự Ú', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'tcvn', select: null } } });
    expect([...tcvn.bytes]).toEqual([0x1b, 0x40, 0xa6, 0xb4, 0x20, 0x55, 0xb3, 0x0a]);
    expect(tcvn.diagnostics).toEqual([]);
    expect(iconv.decode(Buffer.from(tcvn.bytes.slice(2, -1)), 'tcvn').normalize('NFC')).toBe('Ự Ú');
    const viscii = compile('Ẳ Ỵ', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'viscii', select: null } } });
    expect([...viscii.bytes]).toEqual([0x1b, 0x40, 0x41, 0x20, 0x59, 0x0a]);
    expect(viscii.diagnostics.map((d) => d.code)).toEqual(['text/transliterated', 'text/transliterated']);
  });

  it('never writes an ASCII character as a byte the page reads as another, on any single-byte page iconv-lite has: ISO646-CN\'s "$" (¥ at 0x24) is replaced, with a warning', () => {
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const moved: string[] = [];
    for (const name of singleBytePages()) {
      const r = compile(ascii, { printer: { extends: 'MAKER5T20', codepage: { encoding: name, select: null } } });
      const printed = iconv.decode(Buffer.from(r.bytes.slice(2, -1)), name);
      // (Beside the info that the 95 characters are wider than the paper.)
      const said = r.diagnostics.filter((d) => d.code !== 'text/line-too-long');
      const replaced = said.map((d) => d.span.start.column - 1);
      expect(said.every((d) => d.code === 'text/replaced'), name).toBe(true);
      for (let i = 0; i < ascii.length; i++) {
        if (replaced.includes(i)) {
          expect(printed[i], name).toBe('?');
          moved.push(`${name} ${ascii[i]}`);
        } else expect(printed[i], `${name}: ${ascii[i]}`).toBe(ascii[i]);
      }
    }
    // The three pages that read an ASCII byte as another character, and nothing else.
    expect(moved).toEqual(['cp864 %', 'iso646cn $', 'iso646cn ~', 'iso646jp \\', 'iso646jp ~']);
    // The probe's receipt: "R$ 10 ~" on a TM-T20 told to select ISO646-CN with ESC t 16; ¥ and ‾ print from 0x24 and 0x7E.
    const cn = compile('R$ 10 ~ ¥‾', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'iso646cn', select: '1B 74 10' } } });
    expect(hex(cn.bytes)).toBe('1b401b7410' + '523f203130203f20247e' + '0a');
    expect(cn.diagnostics.map((d) => [d.severity, d.code, d.message, d.span.start.column])).toEqual([
      ['warning', 'text/replaced', 'U+0024 "$" is not in ISO646CN on Epson TM-T20: printed as "?"', 2],
      ['warning', 'text/replaced', 'U+007E "~" is not in ISO646CN on Epson TM-T20: printed as "?"', 7],
    ]);
  });

  it('writes each character with a byte that decodes to it, or to the same text: on every single-byte page iconv-lite has', () => {
    const pages = singleBytePages();
    const equivalents: string[] = [];
    for (const name of pages) {
      const { table } = codepage(name);
      for (let c = 0x80; c < 65536; c++) {
        const b = table![c]!;
        if (b < 0) continue;
        const ch = String.fromCharCode(c);
        const decoded = iconv.decode(Buffer.from([b]), name);
        if (decoded === ch) continue;
        expect(decoded.normalize('NFC'), `${name}: U+${c.toString(16)} → ${b.toString(16)}`).toBe(ch.normalize('NFC'));
        equivalents.push(`${name} U+${c.toString(16).padStart(4, '0')}`);
      }
    }
    // The pages whose ohm sign (U+2126) stands for Greek Ω, and Mac Greek's ano teleia (U+0387) for the middle dot.
    expect(equivalents.sort()).toEqual(['maccroatian U+03a9', 'macgreek U+00b7', 'maciceland U+03a9', 'macintosh U+03a9', 'macroman U+03a9', 'macromania U+03a9', 'macturkish U+03a9']);
  });

  it('prints Greek Ω (U+03A9) on Mac Roman as its ohm sign (BD), silently: the same text', () => {
    const macRoman = { extends: 'MAKER5T20', codepage: { encoding: 'macroman', select: null } };
    for (const text of ['\u03a9', '\u2126']) {
      const r = compile(`R=5${text}`, { printer: macRoman });
      expect(hex(r.bytes)).toBe('1b40523d35bd0a');
      expect(r.diagnostics).toEqual([]);
    }
    const greek = compile('a\u00b7b', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'macgreek', select: null } } });
    expect(hex(greek.bytes)).toBe('1b4061af620a');
    expect(greek.diagnostics).toEqual([]);
  });

  // Code page names and a code page's undefined bytes: kept because mutants of src/text survived
  // without them (`npm run mutation`, bench/MUTATION.md).

  it('takes "utf-8" as UTF-8 output, as "utf8"', () => {
    const dashed = compile('é€', { printer: { extends: 'GENERICA', codepage: { encoding: 'utf-8' } } });
    expect(dashed.diagnostics).toEqual([]);
    expect(hex(dashed.bytes)).toBe(hex(compile('é€', { printer: 0 }).bytes));
  });

  it('never prints U+FFFD as a byte the code page leaves undefined', () => {
    // CP1252 leaves 81, 8D, 8F, 90 and 9D undefined: U+FFFD is not in it, so it is replaced.
    const r = compile('\ufffd', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'cp1252', select: '1B 74 10' } } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['text/replaced']);
    expect(hex(r.bytes)).toBe('1b401b74103f0a');
  });
});

// Which names load iconv-lite (built-in pages and UTF-8 never do, as src/text/codepage.ts's header
// says), what happens without it (the path of every runtime but Node), one page per name in any
// case, display names, the lookup table (a character a page has at two bytes maps to the first)
// and the suspect regex held, for every UTF-16 code unit, to the rule its doc comment states: kept
// because mutants of src/text/codepage.ts survived without them (`npm run mutation`, bench/MUTATION.md).
const require = createRequire(import.meta.url);
const iconvPath = require.resolve('iconv-lite');

/**
 * Runs `fn` with every `require('iconv-lite')` — the one codepage.ts makes through nodeRequire() —
 * answered by `load` instead of Node's module cache; the compiler's caches are emptied before and
 * after, so that codepage.ts asks again.
 */
function withIconvLoad<T>(load: () => unknown, fn: () => T): T {
  require('iconv-lite');
  const real = require.cache[iconvPath]!;
  require.cache[iconvPath] = {
    loaded: true,
    get exports() {
      return load();
    },
  } as unknown as NodeJS.Module;
  clearCaches();
  try {
    return fn();
  } finally {
    require.cache[iconvPath] = real;
    clearCaches();
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const latin2 = (text: string) => new Uint8Array(iconv.encode(text, 'iso-8859-2'));

describe('iconv-lite is loaded only for pages that are not built in', () => {
  it('never for a built-in page or UTF-8, in any case; once for another page', () => {
    let loads = 0;
    withIconvLoad(
      () => {
        loads++;
        return iconv;
      },
      () => {
        const bytes = Uint8Array.of(0x41, 0x82, 0x9c, 0xe1);
        for (const name of ['cp850', 'CP850', 'Cp437', 'cp1252', 'CP866']) {
          expect(codepageChars(name)).toBe(builtinChars(name.toLowerCase()));
          expect(codepage(name).table![0x41]).toBe(0x41);
          expect(decodeBytes(bytes, name)).toBe(iconv.decode(Buffer.from(bytes), name));
        }
        for (const name of ['utf8', 'UTF8', 'utf-8', 'UTF-8']) {
          expect(codepage(name).table).toBeNull();
          expect(decodeBytes(utf8('é€😀'), name)).toBe('é€😀');
        }
        expect(loads).toBe(0);
        expect(decodeBytes(latin2('Łódź'), 'ISO-8859-2')).toBe('Łódź');
        expect(loads).toBe(1);
      },
    );
  });

  it('decodes a page only iconv-lite knows, and gives undefined for an encoding none knows', () => {
    // CP737 (Greek) is not one of the runtime TextDecoder's encodings.
    const greek = new Uint8Array(iconv.encode('Αθήνα', 'cp737'));
    expect(() => new TextDecoder('cp737')).toThrow(RangeError);
    expect(decodeBytes(greek, 'cp737')).toBe('Αθήνα');
    expect(decodeBytes(greek, 'cp99999')).toBeUndefined();
  });
});

describe('without iconv-lite (every runtime but Node)', () => {
  const missing = () => {
    throw Object.assign(new Error("Cannot find module 'iconv-lite'"), { code: 'MODULE_NOT_FOUND' });
  };

  it('still builds the built-in pages and UTF-8, and says which pages are built in for another', () => {
    withIconvLoad(missing, () => {
      expect(codepage('cp850').table![0xe9]).toBe(0x82);
      expect(codepage('utf8').table).toBeNull();
      const builtIn = Object.keys(PACKED_CODEPAGES);
      expect(builtIn.slice(0, 2)).toEqual(['cp437', 'cp850']);
      expect(() => codepage('iso-8859-2')).toThrow(
        `code page "iso-8859-2" is not built in (${builtIn.join(', ')}); others need iconv-lite, in Node`,
      );
      expect(() => codepageChars('ISO-8859-2')).toThrow(/^code page "ISO-8859-2" is not built in \(cp437, cp850, /);
    });
  });

  it('decodes through the runtime TextDecoder, undefined for an encoding it does not know', () => {
    withIconvLoad(missing, () => {
      expect(decodeBytes(latin2('Łódź'), 'iso-8859-2')).toBe('Łódź');
      expect(decodeBytes(Uint8Array.of(0x82), 'cp850')).toBe('é');
      expect(decodeBytes(utf8('é€'), 'utf-8')).toBe('é€');
      expect(decodeBytes(Uint8Array.of(0x41), 'cp99999')).toBeUndefined();
    });
  });
});

describe('code page objects', () => {
  it('are one per name, whatever its case', () => {
    const page = codepage('cp850');
    expect(codepage('cp850')).toBe(page);
    expect(codepage('CP850')).toBe(page);
    expect(codepage('Cp850')).toBe(page);
    expect(codepageTable('CP850')).toBe(page.table);
    expect(codepage('UTF8')).toBe(codepage('utf8'));
    expect(codepage('UTF-8')).toBe(codepage('utf-8'));
  });

  it('have display names in capitals, "UTF-8" for every spelling of it', () => {
    expect(codepage('cp850').name).toBe('CP850');
    expect(codepage('Cp1252').name).toBe('CP1252');
    expect(codepage('iso-8859-2').name).toBe('ISO-8859-2');
    for (const name of ['utf8', 'UTF8', 'utf-8', 'UTF-8']) {
      clearCaches();
      expect(codepage(name).name).toBe('UTF-8');
    }
  });
});

// Built-in pages, one from iconv-lite, and two that have some characters at two bytes (ArmSCII-8:
// ( ) , - . ; CP1161: four Thai marks).
const pages = ['cp437', 'cp850', 'cp866', 'cp1252', 'iso-8859-2', 'armscii8', 'cp1161'];

describe('lookup table', () => {
  it.each(pages)('%s: each character to the first byte that has it, -1 for every other code unit', (name) => {
    const chars = codepageChars(name);
    const first = new Map<number, number>();
    for (let b = 0; b < 256; b++) if (!first.has(chars.charCodeAt(b))) first.set(chars.charCodeAt(b), b);
    first.delete(0xfffd);
    const table = codepageTable(name)!;
    expect(table).toHaveLength(0x10000);
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) if (table[c] !== (first.get(c) ?? -1)) wrong.push(`U+${c.toString(16)} → ${table[c]}`);
    expect(wrong).toEqual([]);
  });

  it('prints a character an ArmSCII-8 printer has twice as its first byte (ASCII)', () => {
    expect(codepageChars('armscii8').charCodeAt(0xa5)).toBe(0x28); // "(" again
    const { bytes, diagnostics } = compile('(a), b.', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'armscii8' } } });
    expect(diagnostics).toEqual([]);
    expect(Buffer.from(bytes).includes(Buffer.from('(a), b.', 'latin1'))).toBe(true);
    expect([...bytes].filter((b) => b >= 0xa5 && b <= 0xad)).toEqual([]);
  });
});

describe('suspect regex', () => {
  // The rule of Codepage.suspect's doc comment: C0/C1 controls (and DEL) other than TAB and LF,
  // NBSP (left to the sanitiser), Latin-1 characters the page lacks, anything above Latin-1.
  const suspectByRule = (c: number, chars: string) =>
    (c < 0x20 && c !== 9 && c !== 10) || (c >= 0x7f && c <= 0xa0) || c > 0xff || !chars.includes(String.fromCharCode(c));

  it('CP437: the rule is neither all nor nothing in Latin-1', () => {
    const { suspect } = codepage('cp437');
    expect(['é', 'ÿ', '£', ' ', '~', '\t', '\n'].filter((ch) => suspect.test(ch))).toEqual([]);
    expect(['þ', '\u00a0', '\u007f', '\u0085', '\u000b', '\r', '€', '\ud800'].filter((ch) => !suspect.test(ch))).toEqual([]);
  });

  it.each(pages)('%s: matches exactly the code units the rule names, test and exec alike', (name) => {
    const chars = codepageChars(name);
    const { suspect, findSuspect } = codepage(name);
    const expected: number[] = [];
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const should = suspectByRule(c, chars);
      if (should) expected.push(c);
      if (suspect.test(String.fromCharCode(c)) !== should) wrong.push(`U+${c.toString(16)} ${should ? 'missed' : 'matched'}`);
    }
    expect(wrong).toEqual([]);

    const all = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).join('');
    const found: number[] = [];
    findSuspect.lastIndex = 0;
    // Bounded: a regex that is not global, or matches the empty string, would find the same place forever.
    for (let m = findSuspect.exec(all); m !== null && found.length <= all.length; m = findSuspect.exec(all)) found.push(m.index);
    expect(found).toEqual(expected);
  });
});
