// A failure of bobina itself while lowering (a module that did not load, an unexpected exception)
// is an error diagnostic of its own code, with the cause, on the node it hit — never a user-facing
// code such as lower/qr-too-long. The QR encoder is made to fail for real, the way a broken
// install or a bug would.
import { afterEach, describe, expect, it } from 'vitest';
import { clearCaches } from '../../src/caches.js';
import { compile, hasErrors, loadProfile, lower, parse } from '../../src/index.js';
import QRCode from '../../src/lower/qrcode-core.js';
import { codepage } from '../../src/text/codepage.js';

const realCreate = QRCode.create;
afterEach(() => {
  QRCode.create = realCreate;
});

const receipt = 'Total 10,00\n<qrcode>https://nfce.example/q?p=1</qrcode>\n<paperCutFull>';

describe('an internal failure while lowering', () => {
  it('is lower/internal-error with the cause when the QR encoder did not load, not lower/qr-too-long', () => {
    QRCode.create = () => {
      throw Object.assign(new Error("Cannot find module 'qrcode/lib/core/qrcode.js'"), { code: 'MODULE_NOT_FOUND' });
    };
    const { diagnostics, bytes } = compile(receipt, { printer: 'MAKER5T20' }); // raster QR
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/internal-error']);
    const [d] = diagnostics;
    expect(d!.severity).toBe('error');
    expect(d!.message).toContain("Cannot find module 'qrcode/lib/core/qrcode.js'");
    expect(d!.message).toContain('<qrcode>');
    expect(d!.span.start).toMatchObject({ line: 2, column: 1 });
    expect(hasErrors(diagnostics)).toBe(true);
    // The rest of the receipt is still compiled: the text and the cut are there.
    expect(Buffer.from(bytes).includes('Total 10,00')).toBe(true);
    expect(Buffer.from(bytes).includes(Buffer.from([0x1d, 0x56]))).toBe(true);
  });

  it('is lower/internal-error for an unexpected exception of any kind', () => {
    QRCode.create = () => {
      throw new TypeError('modules is undefined');
    };
    const { diagnostics } = compile(receipt, { printer: 'MAKER3DR800' });
    expect(diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['error lower/internal-error']);
    expect(diagnostics[0]!.message).toContain('TypeError: modules is undefined');
  });

  it('is lower/internal-error with the thrown value when it is not an Error at all', () => {
    QRCode.create = () => {
      throw 'qrcode exploded';
    };
    const { diagnostics } = compile(receipt, { printer: 'MAKER5T20' });
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/internal-error']);
    expect(diagnostics[0]!.message).toMatch(/^internal error while lowering <qrcode> \(qrcode exploded\): a bug in bobina/);
    QRCode.create = () => {
      throw null;
    };
    expect(compile(receipt, { printer: 'MAKER5T20' }).diagnostics[0]!.message).toMatch(/^internal error while lowering <qrcode> \(null\)/);
  });

  it('still reports data no QR symbol holds as lower/qr-too-long', () => {
    const { diagnostics } = compile(`<qrcode>${'x'.repeat(3000)}</qrcode>`, { printer: 'MAKER5T20' });
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/qr-too-long']);
  });
});

// The same for text and for a tag (a suspect test of a code page that throws, a profile that cannot
// be read): kept because mutants of src/lower survived without it (`npm run mutation`,
// bench/MUTATION.md).
describe('an internal failure while lowering text or a tag', () => {
  afterEach(() => clearCaches());

  it('is lower/internal-error naming the text it hit, and the rest still prints', () => {
    // The code page's suspect test fails, as a bug there would.
    (codepage('cp850') as { suspect: unknown }).suspect = {
      test() {
        throw new RangeError('bad table');
      },
    };
    const { diagnostics } = compile('é<paperCutFull>', { printer: 5 });
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/internal-error', 0, 1]]);
    expect(diagnostics[0]!.message).toMatch(/^internal error while lowering text \(RangeError: bad table\)/);
  });

  it('is lower/internal-error naming the tag it hit', () => {
    const t20 = loadProfile(5);
    // A profile whose capability set cannot be read, as a broken one would be.
    const broken = new Proxy(t20, {
      get(target, key) {
        if (key === 'caps') throw new TypeError('caps is gone');
        return Reflect.get(target, key);
      },
    });
    const { diagnostics } = lower(parse('x<paperCutFull>').ast, broken);
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/internal-error', 1, 15]]);
    expect(diagnostics[0]!.message).toMatch(/^internal error while lowering <paperCutFull> \(TypeError: caps is gone\)/);
    expect(() => lower(parse('x').ast, broken)).not.toThrow();
  });
});
