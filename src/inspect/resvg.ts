// @resvg/resvg-js, loaded on the first PNG: it is a native addon that costs more to load than the
// whole compiler, and only PNG previews need it. require() keeps renderPng synchronous.
import { createRequire } from 'node:module';

type ResvgModule = typeof import('@resvg/resvg-js');

let loaded: ResvgModule | undefined;

export function resvg(): ResvgModule {
  return (loaded ??= createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule);
}
