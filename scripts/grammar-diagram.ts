// Regenerates grammar/diagram.html from the real parser: `npm run grammar`. The page chevrotain
// generates loads its drawing scripts from a CDN; they ship in the chevrotain package, so they are
// inlined here and the diagram opens offline.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grammarDiagramHtml } from '../src/parse/grammar.js';

const root = join(import.meta.dirname, '..');
const diagrams = join(root, 'node_modules', 'chevrotain', 'diagrams');
const asset = (path: string) => readFileSync(join(diagrams, path), 'utf8');

const html = grammarDiagramHtml()
  .replace(/<link rel='stylesheet' href='https:\/\/unpkg\.com\/chevrotain@[^/]+\/diagrams\/([^']+)'>/g, (_, path: string) => `<style>\n${asset(path)}\n</style>`)
  .replace(/<script src='https:\/\/unpkg\.com\/chevrotain@[^/]+\/diagrams\/([^']+)'><\/script>/g, (_, path: string) => `<script>\n${asset(path)}\n</script>`);
if (html.includes('unpkg.com')) throw new Error('a diagram asset was not inlined');

const out = join(root, 'grammar', 'diagram.html');
writeFileSync(out, html);
console.log(`wrote ${out}`);
