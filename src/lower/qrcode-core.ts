// qrcode's core `create`, loaded on the first QR code that needs a module matrix: a raster QR in
// lowering, or a native QR redrawn by the previewer. Only the core module (no PNG/SVG/terminal
// renderers, which pull in pngjs and zlib), and only when a receipt has such a QR code.
import { createRequire } from 'node:module';
import type { create as Create } from 'qrcode';

type Core = { create: typeof Create };

let core: Core | undefined;

const QRCode: Core = {
  create: (text, options) => (core ??= createRequire(import.meta.url)('qrcode/lib/core/qrcode.js') as Core).create(text, options),
};

export default QRCode;
