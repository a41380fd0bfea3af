// The railroad diagram in grammar/ is generated from the live parser; this fails when the parser
// changes and the diagram was not regenerated (npm run grammar).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grammarDiagramHtml } from '../src/parse/grammar.js';

const committed = readFileSync(join(import.meta.dirname, '..', 'grammar', 'diagram.html'), 'utf8');
const grammarOf = (html: string) => /window\.serializedGrammar = (\[[\s\S]*?\n\]);/.exec(html)?.[1];

describe('grammar/', () => {
  it('holds a railroad diagram of the current parser, readable offline', () => {
    expect(grammarOf(grammarDiagramHtml())).toBeDefined();
    expect(grammarOf(committed)).toBe(grammarOf(grammarDiagramHtml()));
    expect(committed).not.toContain('unpkg.com');
  });

  it('names in the EBNF every rule of the parser', () => {
    const ebnf = readFileSync(join(import.meta.dirname, '..', 'grammar', 'conteudo.ebnf'), 'utf8');
    for (const rule of JSON.parse(grammarOf(committed)!) as { name: string }[]) expect(ebnf).toMatch(new RegExp(`^${rule.name}\\s+=`, 'm'));
  });
});
