// parse(…, { tags: 'partner' }) and compile(…, { tags: 'partner' }): only the partner's eight tags
// are commands; every other tag prints as written, with a warning.
import { describe, expect, it } from 'vitest';
import { compile, parse, PARTNER_TAGS, TAGS } from '../../src/index.js';

const partner = (s: string) => parse(s, { tags: 'partner' });

describe("tags: 'partner'", () => {
  it('keeps the eight partner tags as commands, exactly as with every tag', () => {
    const s = '<textAlignLeft><textAlignCenter><textAlignRight><textCondensedOn><textCondensedOff><paperCutFull><paperCutPartial/><qrcode>x</qrcode><qrcode size="2"/>';
    expect(partner(s)).toEqual(parse(s));
    expect([...PARTNER_TAGS].sort()).toEqual(['paperCutFull', 'paperCutPartial', 'qrcode', 'textAlignCenter', 'textAlignLeft', 'textAlignRight', 'textCondensedOff', 'textCondensedOn']);
  });

  it('prints every other known tag as written, with a tag-disabled warning at it', () => {
    const others = [...Object.keys(TAGS).filter((t) => !PARTNER_TAGS.has(t)).map((t) => `<${t}>`), '<textSize width="2">', '<image src="x"/>', '<rule/>', '<row>', '<cell>', '</row>', '<barcode type="ean8">'];
    for (const tag of others) {
      const { ast, diagnostics } = partner(`a${tag}b`);
      expect(ast.children).toEqual([{ type: 'text', value: `a${tag}b`, start: 0, end: tag.length + 2 }]);
      expect(diagnostics.map((d) => [d.code, d.severity, d.span.start.offset, d.span.end.offset])).toEqual([['parse/tag-disabled', 'warning', 1, 1 + tag.length]]);
    }
    expect(partner('<cashDrawerOpen>').diagnostics[0]!.message).toBe("<cashDrawerOpen> is printed as text: with tags: 'partner' only the partner's eight tags are commands, and <cashDrawerOpen> is not one of them");
  });

  it('keeps partner commands inside what would be a barcode or a row: they are text there', () => {
    const { ast } = partner('<row><cell><paperCutFull></cell></row>');
    expect(ast.children.map((n) => n.type)).toEqual(['text', 'command', 'text']);
  });

  it('still resolves escapes, so escape() works with it', () => {
    expect(partner('&lt;paperCutFull>').ast.children.map((n) => (n.type === 'text' ? n.value : n.type)).join('')).toBe('<paperCutFull>');
  });

  it('still reports unknown tags as unknown', () => {
    expect(partner('<b>').diagnostics.map((d) => d.code)).toEqual(['parse/unknown-tag']);
  });

  it('reaches compile(): the drawer tag prints as text and sends no pulse', () => {
    const { bytes, diagnostics, records } = compile('<cashDrawerOpen>\n', { printer: 'MAKER5T20', tags: 'partner', records: true });
    expect(records!.map((r) => r.op)).not.toContain('drawer');
    expect(Buffer.from(bytes).includes(Buffer.from('<cashDrawerOpen>\n'))).toBe(true);
    expect(diagnostics.map((d) => d.code)).toEqual(['parse/tag-disabled']);
    expect(compile('<cashDrawerOpen>\n', { printer: 'MAKER5T20', tags: 'all', records: true }).records!.map((r) => r.op)).toContain('drawer');
  });

  it('refuses a tag set it does not know, as a usage error', () => {
    expect(() => compile('x', { printer: 5, tags: 'none' as never })).toThrow(/tags must be 'all' or 'partner', not "none"/);
    expect(() => parse('x', { tags: 'PARTNER' as never })).toThrow(TypeError);
  });
});
