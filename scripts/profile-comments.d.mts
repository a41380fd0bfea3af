// Types of scripts/profile-comments.mjs.
import type { Plugin } from 'esbuild';
export declare function profileComments(): Plugin;
