// Types of scripts/chevrotain-trim.mjs.
import type { Plugin } from 'esbuild';
export declare function chevrotainTrim(): Plugin;
