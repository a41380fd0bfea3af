// docs/printers.md is generated from the profiles (npm run printers-doc): this fails when a
// profile changed and the document was not regenerated, so the two never disagree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProfiles, profileSources } from '../../src/index.js';
import { printersDoc } from '../../scripts/printers-doc.js';

const committed = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'printers.md'), 'utf8');

describe('docs/printers.md', () => {
  it('is what the profiles say today (otherwise: npm run printers-doc)', () => {
    expect(committed).toBe(printersDoc());
  });

  it('gives every command of every ESC/POS template a source and a confidence', () => {
    for (const p of listProfiles().filter((p) => p.output === 'escpos')) {
      for (const key of Object.keys(p.commands!)) {
        expect(profileSources(p)[`commands.${key}`], `${p.code} commands.${key}`).toBeDefined();
      }
      for (const path of ['codepage.select', 'qr.command', 'image.command', 'geometry']) expect(profileSources(p)[path], `${p.code} ${path}`).toBeDefined();
    }
  });
});
