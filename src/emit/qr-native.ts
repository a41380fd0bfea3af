// Native QR command families, as a table: family → bytes for one symbol.
// Epson `GS ( k` (model 2), Bematech `GS k Q`, Daruma `ESC 0x81` (see PRINTERS.md).
import { compileTemplate, expandTemplate } from '../profiles/bytes.js';
import { eccSent, moduleSent } from '../profiles/qr-native.js';
import type { ProfileData } from '../profiles/schema.js';
import { utf8Length } from '../text/utf8.js';
import type { ByteWriter } from './writer.js';

type Qr = ProfileData['qr'];
/** Writes one symbol; `data` is sent as UTF-8 (its byte length goes in the command's header). */
type Family = (out: ByteWriter, data: string, qr: Qr, start: number, end: number) => void;

const EPSON_ECC = { L: 0x30, M: 0x31, Q: 0x32, H: 0x33 } as const;
const BEMATECH_ECC = { L: 0, M: 1, Q: 2, H: 3 } as const;
/** No L: profiles/qr-native.ts says which level goes instead. */
const DARUMA_ECC = { M: 0x4d, Q: 0x51, H: 0x48 } as const;

/** The module size, clamped into the sizes the printer's native command takes (qr.moduleRange). */
const moduleSize = (qr: Qr) => moduleSent(qr, qr.moduleSize);

export const QR_FAMILIES: Readonly<Record<string, Family>> = {
  'epson-gs-k': (out, data, qr, start, end) => {
    out.mark('qrModel', 'qr model 2', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00));
    out.mark('qrSize', 'qr module size', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, moduleSize(qr)));
    out.mark('qrEcc', 'qr error correction', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x45, EPSON_ECC[qr.ecc]));
    out.mark('qrStore', 'qr store', start, end);
    const k = utf8Length(data) + 3;
    out.bytes(Uint8Array.of(0x1d, 0x28, 0x6b, k & 0xff, k >> 8, 0x31, 0x50, 0x30));
    out.utf8(data);
    out.mark('qrPrint', 'qr print', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30));
  },
  'bematech-gs-k-q': (out, data, qr, start, end) => {
    out.mark('qr', 'qr', start, end);
    const k = utf8Length(data);
    // N2 N3 N4 are the profile's (qr.params): the sources agree on them for the MP-4200 only.
    out.bytes(Uint8Array.of(0x1d, 0x6b, 0x51, BEMATECH_ECC[qr.ecc], ...expandTemplate(compileTemplate(qr.params!)), k & 0xff, k >> 8));
    out.utf8(data);
  },
  'daruma-esc-81': (out, data, qr, start, end) => {
    out.mark('qr', 'qr', start, end);
    const k = utf8Length(data) + 2;
    out.bytes(Uint8Array.of(0x1b, 0x81, k & 0xff, k >> 8, moduleSize(qr), DARUMA_ECC[eccSent('daruma-esc-81', qr.ecc) as keyof typeof DARUMA_ECC]));
    out.utf8(data);
  },
};
