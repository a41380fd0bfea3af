// The styled receipt (issue 21 §6): text styles and sizes, rows and cells, rules, an EAN-13 and a
// CODE128 (the 44-digit NFC-e access key), a 384-dot logo and a QR, built twice: as conteudo for
// bobina (bench/fixtures/styled.txt, the logo passed by name in compile's `images`), and through
// receipt-printer-encoder@4's own API, command for command. Also the 576×300 photo-like image
// whose dithering is measured beside receipt-printer-encoder's.
//
// Images: bobina takes PNG file bytes and decodes them on every compile; receipt-printer-encoder
// has no PNG decoder (it takes ImageData-like RGBA pixels), so it gets the same pixels already
// decoded, made once outside the timed loop. That is the work a caller of each library does per
// receipt when it holds the logo as a file, and it flatters receipt-printer-encoder.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';

const benchRequire = createRequire(new URL('../package.json', import.meta.url));
export const ReceiptPrinterEncoder = benchRequire('@point-of-sale/receipt-printer-encoder');

export const STYLED = readFileSync(new URL('../fixtures/styled.txt', import.meta.url), 'utf8');

/** bobina's printer for every styled run: the TM-T20 with its native QR (as the other fixtures). */
export const NATIVE = { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } };

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** A grey image from `f(x, y)` (0 black … 255 white): 8-bit grey PNG bytes and the same pixels as RGBA. */
export function greyImage(width, height, f) {
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grey[y * width + x] = Math.max(0, Math.min(255, Math.round(f(x, y))));
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < grey.length; i++) rgba.set([grey[i], grey[i], grey[i], 255], i * 4);
  return { width, height, grey, png: png(width, height, grey), rgba: { data: rgba, width, height } };
}

/** The logo: 384×96, a dark disc, a grey gradient band and solid bars (dithering has work to do). */
export const LOGO = greyImage(384, 96, (x, y) => {
  const d = Math.hypot(x - 48, y - 48);
  if (d < 40) return d < 30 ? 20 : 140;
  if (x > 100 && x < 370 && y > 20 && y < 44) return ((x - 100) / 270) * 255;
  if (x > 100 && x < 370 && y > 56 && y < 76) return Math.floor(x / 6) % 2 ? 0 : 255;
  return 255;
});

/** The 576×300 image for the dithering comparison: smooth gradients in both directions and a soft disc. */
export const PHOTO = greyImage(576, 300, (x, y) => {
  const disc = Math.max(0, 1 - Math.hypot(x - 400, y - 150) / 120);
  return 255 * (0.15 + 0.7 * (x / 575) * (0.4 + 0.6 * (y / 299))) * (1 - 0.8 * disc) + 30 * Math.sin(x / 9) * Math.cos(y / 7);
});

/** bobina's compile of the styled receipt, with the logo as PNG bytes. */
export function bobinaStyled(compile, printer) {
  const images = { logo: LOGO.png };
  return () => compile(STYLED, { printer, images }).bytes;
}

const ITEMS = [
  ['1', 'Café expresso', '5,00'],
  ['2', 'Pão na chapa com manteiga', '15,00'],
  ['1', 'Suco de laranja natural 500 ml', '9,00'],
  ['1', 'Água com gás', '4,50'],
];
const QR = 'https://www.fazenda.sp.gov.br/nfce/qrcode?p=35200714200166000187650010000000051000000029|2|1|1|ABCDEF0123456789';

// The T20III profile has no 'code128-auto', and RPE's 'code128' sends code set B unless the data
// says otherwise: a caller encodes the 44-digit key in set C itself (as bobina chooses it), once.
const KEY = '35200714200166000187650010000000051000000029';
const KEY_SET_C = '{C' + String.fromCharCode(...KEY.match(/../g).map(Number));

/** receipt-printer-encoder@4's settings for the T20 (as lib/adapters.mjs): ESC/POS, 48 columns, raster images. */
export const RPE_OPTIONS = Object.freeze({ language: 'esc-pos', printerModel: 'epson-tm-t20iii', columns: 48, imageMode: 'raster' });

/** The same receipt through receipt-printer-encoder@4 (48 columns, CP850, raster images: as bobina's T20). */
export function rpeStyled() {
  const logo = LOGO.rgba;
  const columns = [{ width: 4, align: 'left' }, { width: 34, align: 'left' }, { width: 10, align: 'right' }];
  return () => {
    const e = new ReceiptPrinterEncoder(RPE_OPTIONS);
    e.initialize().codepage('cp850');
    e.align('center').image(logo, 384, 96, 'floydsteinberg');
    e.size(2, 2).bold(true).line('CAFÉ DA ESQUINA').bold(false).size(1, 1);
    e.line('Av. Paulista, 1000 - São Paulo/SP');
    e.align('left').rule();
    e.table(columns, [['Qtd', 'Produto', 'Total']]);
    e.rule({ style: 'double' });
    e.table(columns, ITEMS);
    e.rule();
    e.bold(true).table([{ width: 38, align: 'left' }, { width: 10, align: 'right' }], [['TOTAL R$', '33,50']]).bold(false);
    e.underline(true).text('Pagamento: cartão de débito').underline(false).newline();
    e.align('center').invert(true).text(' VOLTE SEMPRE ').invert(false).newline();
    e.barcode('789100031550', 'ean13', { height: 60, width: 2, text: 'below' });
    e.barcode(KEY_SET_C, 'code128', { height: 60, width: 2, text: 'none' });
    e.qrcode(QR, { model: 2, size: 6, errorlevel: 'm' });
    e.size(1, 2).line('Obrigado!').size(1, 1);
    e.cut('full');
    return e.encode();
  };
}

/** A PNG file (8-bit grey, no interlace, filter 0 on every row). */
function png(width, height, grey) {
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(grey.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))];
  return Buffer.concat(parts);
}

function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(data, 8);
  let c = 0xffffffff;
  for (const b of out.subarray(4, 8 + data.length)) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  v.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
  return out;
}
