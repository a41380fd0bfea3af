// The README, the docs/ pages, the examples' and the tests' READMEs and the changelog link to each
// other by relative paths and #anchors: each link must reach a file that exists and, in a Markdown
// file, a heading that exists (GitHub's anchor for it). Each docs/ page is linked from the README
// and opens with a contents list of its own sections.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const DOCS = join(ROOT, 'docs');
const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => join(DOCS, f));
const exampleReadmes = readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('README.md') && !f.includes('node_modules'))
  .map((f) => join(ROOT, 'examples', f));
const FILES = [join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md'), join(ROOT, 'test', 'README.md'), ...pages, ...exampleReadmes];

/** The text outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

function headings(markdown: string): { level: number; text: string }[] {
  return [...prose(markdown).matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({ level: m[1]!.length, text: m[2]! }));
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of headings(markdown)) {
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('links between the README, docs/, examples/ and test/', () => {
  it.each(FILES.map((f) => [relative(ROOT, f), f]))('%s: every relative link reaches a file and heading that exist', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const broken: string[] = [];
    for (const target of links(text)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const to = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(to)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && statSync(to).isFile() && to.endsWith('.md') && !anchors(readFileSync(to, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('links every docs/ page from the README', () => {
    const readme = links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]);
    expect(readme.length).toBeGreaterThan(10);
    expect(pages.map((p) => relative(ROOT, p)).filter((p) => !readme.includes(p))).toEqual([]);
  });

  it.each(pages.filter((p) => !p.endsWith('printers.md')).map((p) => [relative(ROOT, p), p]))('%s opens with a contents list of its sections', (_name, page) => {
    const text = readFileSync(page, 'utf8');
    const listed = [...text.slice(text.indexOf('**Contents**'), text.indexOf('\n## ')).matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(text.indexOf('**Contents**')).toBeGreaterThan(0);
    expect(listed).toEqual(headings(text).filter((h) => h.level === 2 || h.level === 3).map((h) => slug(h.text)));
  });

  it('gives the README a contents list of its sections', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const listed = [...text.slice(text.indexOf('## Contents'), text.indexOf('## Quick start')).matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(listed).toEqual(headings(text).filter((h) => (h.level === 2 || h.level === 3) && h.text !== 'Contents').map((h) => slug(h.text)));
  });
});

describe('the API reference (npm run docs:api)', () => {
  it("documents the package's two entries, the files the declarations are built from", () => {
    const typedoc = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as { entryPoints: string[]; out: string };
    const tsup = readFileSync(join(ROOT, 'tsup.config.ts'), 'utf8');
    const dts = tsup.match(/dts: \{ entry: \{([^}]*)\}/)![1]!;
    expect(typedoc.entryPoints).toEqual([...dts.matchAll(/'([^']+\.ts)'/g)].map((m) => m[1]));
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain(`${typedoc.out.split('/')[0]}/`);
  });
});
