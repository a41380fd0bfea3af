// qrcode's core `create` (the module matrix; no renderers), bundled into bobina's build so a raster
// QR works in a single-file bundle and any runtime. `require`d on first use: the bundler inlines it
// and runs it only then, so a start-up without a raster QR does not pay for it (~15 M instructions).
import type { create as Create } from 'qrcode';

let core: { create: typeof Create } | undefined;

/** One object, so a test can stand in for the encoder (test/lower/failure.test.ts). */
const QRCode: { create: typeof Create } = {
  create: (text, options) => (core ??= require('qrcode/lib/core/qrcode.js') as { create: typeof Create }).create(text, options),
};

export default QRCode;
