// The parse diagnostics are a contract: each code has its severity in the one catalogue, and the
// README's tag section names every one of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/index.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const tagSection = readme.slice(readme.indexOf('## The tag language'), readme.indexOf('## Printers and what degrades where'));

describe('parse diagnostics', () => {
  it('have the severities the tag language gives them', () => {
    const parseCodes = (severity: string) => Object.keys(DIAGNOSTIC_CODES).filter((c) => c.startsWith('parse/') && DIAGNOSTIC_CODES[c as keyof typeof DIAGNOSTIC_CODES] === severity).sort();
    expect(parseCodes('warning')).toEqual(['parse/attribute-unknown', 'parse/tag-disabled', 'parse/unknown-tag']);
    expect(parseCodes('error')).toEqual(['parse/attribute-duplicate', 'parse/attribute-invalid', 'parse/attribute-missing', 'parse/misplaced-content', 'parse/stray-closing-tag', 'parse/unclosed-qrcode', 'parse/unclosed-tag']);
  });

  it('are each named in the README tag section', () => {
    for (const code of Object.keys(DIAGNOSTIC_CODES).filter((c) => c.startsWith('parse/') && c !== 'parse/unknown-tag')) expect(tagSection).toContain(`\`${code}\``);
  });
});
