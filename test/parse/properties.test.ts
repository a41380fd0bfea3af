// Properties of the tag language with attributes, containers and escapes, on generated input:
// parse never throws, escapes round trip, tags: 'partner' makes only partner commands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, escape, parse, PARTNER_TAGS, type Node } from '../../src/index.js';
import { attributeValue, conteudo, extensionTag, row } from '../support/arbitraries.js';

const anyText = fc.oneof(conteudo, fc.string({ unit: 'binary' }), fc.array(fc.oneof(extensionTag, row), { maxLength: 6 }).map((p) => p.join('')));
const tagSet = fc.constantFrom('all' as const, 'partner' as const);
const textOf = (children: Node[]) => children.map((n) => (n.type === 'text' ? n.value : '')).join('');

describe('parse with attributes, containers and escapes', () => {
  it('never throws, and every node (and cell) span lies inside the input, in order', () => {
    fc.assert(
      fc.property(anyText, tagSet, (s, tags) => {
        const { ast, diagnostics } = parse(s, { tags });
        let last = 0;
        for (const node of ast.children) {
          expect(node.start).toBeGreaterThanOrEqual(last);
          expect(node.end).toBeGreaterThan(node.start);
          expect(node.end).toBeLessThanOrEqual(s.length);
          last = node.end;
          if (node.type !== 'row') continue;
          let inRow = node.start;
          for (const cell of node.cells) {
            expect(cell.start).toBeGreaterThanOrEqual(inRow);
            expect(cell.textStart).toBeLessThanOrEqual(cell.textEnd);
            expect(cell.end).toBeLessThanOrEqual(node.end);
            inRow = cell.end;
          }
        }
        for (const d of diagnostics) {
          expect(d.span.start.offset).toBeLessThanOrEqual(d.span.end.offset);
          expect(d.span.end.offset).toBeLessThanOrEqual(s.length);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps text nodes exact: each is the source as written, or one escape', () => {
    fc.assert(
      fc.property(anyText, tagSet, (s, tags) => {
        for (const n of parse(s, { tags }).ast.children) {
          if (n.type !== 'text') continue;
          const written = s.slice(n.start, n.end);
          expect(n.value === written || (written === '&lt;' && n.value === '<') || (written === '&amp;' && n.value === '&')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads any attribute value either as the node field or as one error at that value', () => {
    const value = attributeValue.filter((v) => !/["<\r\n]/.test(v));
    fc.assert(
      fc.property(value, (v) => {
        const s = `<rule char="${v}"/>`;
        const { ast, diagnostics } = parse(s);
        expect(ast.children).toHaveLength(1);
        const rule = ast.children[0]!;
        if (diagnostics.length === 0) {
          // As written, or its composed form (elements.ts: a CJK compatibility ideograph such as U+2F800 composes to U+4E3D).
          const written = v.replaceAll('&lt;', '<').replaceAll('&amp;', '&');
          expect(rule).toMatchObject({ type: 'rule' });
          expect((rule as { char: string }).char.normalize('NFC')).toBe(written.normalize('NFC'));
        } else {
          expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['parse/attribute-invalid', 12, 12 + v.length]]);
          expect(rule).toMatchObject({ type: 'rule', char: '-' });
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(value, fc.constantFrom('width', 'height'), (v, name) => {
        const { ast, diagnostics } = parse(`<textSize ${name}="${v}">`);
        const node = ast.children[0] as { width: number; height: number };
        const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
        if (n >= 1 && n <= 8) expect([node[name], diagnostics]).toEqual([n, []]);
        else expect([node[name], diagnostics.map((d) => d.code)]).toEqual([1, ['parse/attribute-invalid']]);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips any string through escape(): it prints exactly as given, as text or in a cell, whatever the tag set', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), conteudo), tagSet, (s, tags) => {
        const doc = parse(escape(s), { tags });
        expect(doc.ast.children.every((n) => n.type === 'text')).toBe(true);
        expect(textOf(doc.ast.children)).toBe(s);
        expect(doc.diagnostics).toEqual([]);
        const inCell = parse(`<row><cell>${escape(s)}</cell></row>`).ast.children;
        expect(inCell).toMatchObject([{ type: 'row', cells: [{ text: s }] }]);
      }),
      { numRuns: 500 },
    );
  });

  it("makes only the partner's eight tags commands with tags: 'partner', and compiles no drawer or feed", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const { ast } = parse(s, { tags: 'partner' });
        for (const n of ast.children) {
          expect(['text', 'command', 'qrcode']).toContain(n.type);
          if (n.type === 'command') expect(PARTNER_TAGS.has(n.tag)).toBe(true);
        }
        const { records } = compile(s, { printer: 'MAKER5T20', tags: 'partner', records: true });
        for (const r of records!) expect(['drawer', 'feed']).not.toContain(r.op);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same AST with tags: 'partner' as with all tags, for text whose tags are all partner tags", () => {
    const partnerOnly = fc
      .array(fc.oneof(fc.constantFrom(...[...PARTNER_TAGS].filter((t) => t !== 'qrcode').map((t) => `<${t}>`), '<qrcode>x</qrcode>', '<b>', '&lt;', '<'), fc.string({ maxLength: 8 }).filter((w) => !w.includes('<'))), { maxLength: 20 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(partnerOnly, (s) => {
        expect(parse(s, { tags: 'partner' })).toEqual(parse(s));
      }),
      { numRuns: 300 },
    );
  });
});
