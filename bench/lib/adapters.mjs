// The same receipts through each peer library's own API. Each adapter takes the neutral ops from
// receipts.mjs (built once, outside the timed loop) and returns the library's bytes.
// Settings match bobina's T20 profile where the library allows: CP850 (or its nearest page),
// 48 columns, condensed = font B (ESC M 1), QR model 2 / module 6 / ECC M, cut partial or full.
import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchRequire = createRequire(new URL('../package.json', import.meta.url));
const rootRequire = createRequire(new URL('../../package.json', import.meta.url));

// esc-pos-encoder@2's Node build requires `canvas` at load, whose native build fails here (it is
// installed with --ignore-scripts). Text, QR and cut never touch canvas, so a stub stands in.
const stub = fileURLToPath(new URL('./canvas-stub.cjs', import.meta.url));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'canvas') return stub;
  return resolve.call(this, request, ...rest);
};
const EscPosEncoder2 = benchRequire('esc-pos-encoder');
Module._resolveFilename = resolve;

const EscPosEncoder3 = benchRequire('esc-pos-encoder-3');
const ReceiptPrinterEncoder = benchRequire('@point-of-sale/receipt-printer-encoder');
const { ThermalPrinter, PrinterTypes, CharacterSet } = benchRequire('node-thermal-printer');
const receiptline = benchRequire('receiptline');
export const QRCode = rootRequire('qrcode');

export const versions = Object.fromEntries(
  [['esc-pos-encoder@2', 'esc-pos-encoder'], ['esc-pos-encoder@3', 'esc-pos-encoder-3'],
    ['@point-of-sale/receipt-printer-encoder', '@point-of-sale/receipt-printer-encoder'],
    ['node-thermal-printer', 'node-thermal-printer'], ['receiptline', 'receiptline'], ['benny', 'benny']]
    .map(([label, pkg]) => [label, readVersion(new URL(`../node_modules/${pkg}/package.json`, import.meta.url))]),
);
versions.qrcode = readVersion(new URL('../../node_modules/qrcode/package.json', import.meta.url));
function readVersion(url) {
  return JSON.parse(readFileSync(url, 'utf8')).version;
}

/** An RGBA image of a QR code, as a caller of an image API would draw it: 6 px per module, 4-module quiet zone. */
export function qrImage(data) {
  const { modules } = QRCode.create(data, { errorCorrectionLevel: 'M' });
  const scale = 6;
  const side = (modules.size + 8) * scale;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (!modules.data[y * modules.size + x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        let p = (((y + 4) * scale + dy) * side + (x + 4) * scale) * 4;
        for (let dx = 0; dx < scale; dx++, p += 4) { rgba[p] = 0; rgba[p + 1] = 0; rgba[p + 2] = 0; }
      }
    }
  }
  return { data: rgba, width: side, height: side };
}

// --- esc-pos-encoder@2 -----------------------------------------------------------------------
export function escPosEncoder2(ops) {
  const e = new EscPosEncoder2();
  e.initialize().codepage('cp850');
  for (const o of ops) {
    switch (o.op) {
      case 'line': e.line(o.text); break;
      case 'align': e.align(o.value); break;
      case 'condensed': e.size(o.on ? 'small' : 'normal'); break;
      case 'qr': e.qrcode(o.data, 2, 6, 'm'); break;
      case 'cut': e.cut(o.partial ? 'partial' : 'full'); break;
      case 'drawer': e.pulse(); break;
      case 'feed': e.newline().newline().newline(); break;
    }
  }
  return e.encode();
}

// --- ReceiptPrinterEncoder (esc-pos-encoder@3 wraps receipt-printer-encoder@3; v4 standalone) ---
function rpe(Encoder, image) {
  return (ops) => {
    const e = new Encoder({ language: 'esc-pos', printerModel: 'epson-tm-t20iii', columns: 48, imageMode: 'raster' });
    e.initialize().codepage('cp850');
    for (const o of ops) {
      switch (o.op) {
        case 'line': e.line(o.text); break;
        case 'align': e.align(o.value); break;
        case 'condensed': e.font(o.on ? 'B' : 'A'); break;
        case 'qr':
          if (image) { const img = qrImage(o.data); e.image(img, img.width, img.height, 'threshold'); }
          else e.qrcode(o.data, { model: 2, size: 6, errorlevel: 'm' });
          break;
        case 'cut': e.cut(o.partial ? 'partial' : 'full'); break;
        case 'drawer': e.pulse(); break;
        case 'feed': e.newline(3); break;
      }
    }
    return e.encode();
  };
}
export const escPosEncoder3 = rpe(EscPosEncoder3, false);
export const receiptPrinterEncoder = rpe(ReceiptPrinterEncoder, false);
export const receiptPrinterEncoderImage = rpe(ReceiptPrinterEncoder, true);

// --- node-thermal-printer (buffer only: the instance is reused and cleared, never executed) ----
const thermal = new ThermalPrinter({
  type: PrinterTypes.EPSON,
  interface: 'tcp://127.0.0.1:9',
  characterSet: CharacterSet.PC850_MULTILINGUAL,
  width: 48,
  removeSpecialCharacters: false,
});
function ntpOps(ops, qr) {
  thermal.clear();
  for (const o of ops) {
    switch (o.op) {
      case 'line': thermal.println(o.text); break;
      case 'align': o.value === 'center' ? thermal.alignCenter() : o.value === 'right' ? thermal.alignRight() : thermal.alignLeft(); break;
      case 'condensed': o.on ? thermal.setTypeFontB() : thermal.setTypeFontA(); break;
      case 'qr': qr(o.data); break;
      case 'cut': o.partial ? thermal.partialCut() : thermal.cut(); break;
      case 'drawer': thermal.openCashDrawer(); break;
      case 'feed': thermal.newLine(); thermal.newLine(); thermal.newLine(); break;
    }
  }
}
export function nodeThermalPrinter(ops) {
  ntpOps(ops, (data) => thermal.printQR(data, { cellSize: 6, correction: 'M', model: 2 }));
  return thermal.getBuffer();
}
/** Image path: node-thermal-printer prints PNGs, so the QR becomes a PNG first (qrcode.toBuffer). */
export async function nodeThermalPrinterImage(ops) {
  const pngs = [];
  ntpOps(ops, (data) => pngs.push(data));
  // printImageBuffer appends at the end; the receipts have one QR, so append order only moves it.
  for (const data of pngs) {
    const png = await QRCode.toBuffer(data, { errorCorrectionLevel: 'M', scale: 6, margin: 4 });
    await thermal.printImageBuffer(png);
  }
  return thermal.getBuffer();
}

// --- receiptline (a markup language: the ops become a ReceiptLine document) -------------------
const RL_SPECIAL = /[\\|{}~_"`^]|^-+$|^=+$/g;
const rlEscape = (s) => s.replace(RL_SPECIAL, (m) => (m.length > 1 ? '\\' + m : '\\' + m));
const rlPropEscape = (s) => s.replace(/[\\|{};]/g, (m) => '\\' + m);
export function toReceiptLine(ops, qrAsImage = false) {
  let align = 'left';
  const lines = [];
  for (const o of ops) {
    if (o.op === 'align') align = o.value;
    else if (o.op === 'line') {
      const t = o.text === '' ? ' ' : rlEscape(o.text);
      lines.push(align === 'center' ? `|${t}|` : align === 'right' ? ` |${t}` : `${t}|`);
    } else if (o.op === 'qr') {
      if (qrAsImage) lines.push(`{i:${QRCode_png_base64(o.data)}}`);
      else lines.push(`{c:${rlPropEscape(o.data)};o:qrcode,6,m}`);
    } else if (o.op === 'cut') lines.push('=');
    else if (o.op === 'feed') lines.push('', '', '');
  }
  return lines.join('\n');
}
function QRCode_png_base64(data) {
  // receiptline takes base64 PNG; made synchronously via qrcode's PNG renderer once per receipt.
  return pngCache.get(data) ?? '';
}
const pngCache = new Map();
export async function prepareReceiptLineImage(ops) {
  for (const o of ops) if (o.op === 'qr' && !pngCache.has(o.data)) {
    pngCache.set(o.data, (await QRCode.toBuffer(o.data, { errorCorrectionLevel: 'M', scale: 6, margin: 4 })).toString('base64'));
  }
}
const RL_OPTIONS = { command: 'escpos', cpl: 48, encoding: 'cp858', cutting: true, spacing: false };
export function receiptLine(doc) {
  return receiptline.transform(doc, RL_OPTIONS);
}
