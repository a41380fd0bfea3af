// grammar/conteudo.ebnf is the readable spec of the tag language: every example in it must parse
// exactly as it says, and every token of the lexer must have its rule there (same name, spaced).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, type TagSet } from '../../src/index.js';
import { LEXER_MODES, TOKEN_NAMES } from '../../src/parse/tokens.js';
import { nodeText } from '../support/ast-text.js';

const ebnf = readFileSync(join(import.meta.dirname, '..', '..', 'grammar', 'conteudo.ebnf'), 'utf8');
const examplesBlock = ebnf.slice(ebnf.indexOf('---- examples ----'));
/** Each example: the conteudo, the tag set (a line starting `partner` is parsed with tags: 'partner'), what it gives. */
const examples = [...examplesBlock.matchAll(/^\s+(partner\s+)?("(?:[^"\\]|\\.)*")\s+→\s+(.+)$/gm)].map(
  (m) => [JSON.parse(m[2]!) as string, m[1] ? 'partner' : 'all', m[3]!.trim()] as const,
);

/** What `parse` gives, written the way the examples are. */
function described(conteudo: string, tags: TagSet): string {
  const { ast, diagnostics } = parse(conteudo, { tags });
  const nodes = ast.children.map(nodeText);
  const found = diagnostics.map((d) => `${d.severity} ${d.code} at ${d.span.start.line}:${d.span.start.column}`);
  return [...nodes, ...found].join(', ');
}

describe('grammar/conteudo.ebnf', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples)('parses the example %j (tags: %s) as it says', (conteudo, tags, expected) => {
    expect(described(conteudo, tags)).toBe(expected);
  });

  it('has a rule for every token of the lexer', () => {
    const tokens = new Set(Object.values(LEXER_MODES).flat());
    expect([...tokens].sort()).toEqual([...TOKEN_NAMES].sort()); // every kind is found in a mode
    for (const token of tokens) {
      const rule = token.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
      expect(ebnf, `rule "${rule}" for token ${token}`).toMatch(new RegExp(`^${rule}\\s+=`, 'm'));
    }
  });
});
