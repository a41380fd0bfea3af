// Types of scripts/side-effect-free.mjs.
import type { Plugin } from 'esbuild';
export declare function sideEffectFree(path: RegExp): Plugin;
export declare const CHEVROTAIN: RegExp;
