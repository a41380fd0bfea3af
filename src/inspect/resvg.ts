// @resvg/resvg-js, loaded on the first PNG: it is a native addon that costs more to load than the
// whole compiler, and only PNG previews need it, so it is an optional peer dependency, found in
// Node only. require() keeps renderPng synchronous.
import { requireOptional } from '../node-require.js';

type ResvgModule = typeof import('@resvg/resvg-js');

let loaded: ResvgModule | undefined;

export function resvg(): ResvgModule {
  return (loaded ??= requireOptional<ResvgModule>('@resvg/resvg-js', 'a PNG preview'));
}
