// inspect: the way back from bytes — disassembly, listing, preview rendering and the self-test page.
export { disassemble, prefixMnemonic, type DisassembleOptions } from './disassemble.js';
export { formatDisassembly } from './format.js';
export type { Instruction, Effect, EffectType, ArgValue, Ecc } from './types.js';
export { renderSvg, renderPng, renderPage, type RenderOptions } from './render.js';
export type { Page, Mark } from './layout.js';
export { svgParts, type SvgParts } from './svg.js';
export { selfTest, ruler, type SelfTestResult } from './selftest.js';
