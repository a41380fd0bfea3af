// Types for qrcode's core module (its `create` without the PNG/SVG/terminal renderers, which pull
// in pngjs and zlib). Lowering (raster QR) and the previewer (native QR redrawn) both import it.
declare module 'qrcode/lib/core/qrcode.js' {
  import type { create } from 'qrcode';

  const core: { create: typeof create };
  export default core;
}
