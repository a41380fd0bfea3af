// Types of scripts/qrcode-esm.mjs.
import type { Plugin } from 'esbuild';
export declare function qrcodeEsm(): Plugin;
/** One file of qrcode's core (at `path`) as an ES module; throws for a shape its rules do not cover. */
export declare function coreToEsm(path: string, source: string): string;
