// Repository lines like for like (issue 22 §1): the repositories as they are at REV, less what they
// gained after the statement builder replaced the two backends' copies (f5507ea). scripts/store-lines.sh
// compares the whole of today's store with the store before the builder; since then later issues
// added methods (job lists, metrics, fleet health, Idempotency-Key expiry, …), which the "before"
// side never had. This counts the same files as store-lines.sh at REV, leaving out:
//   - every member of a repository object whose name is a repository method that did not exist
//     before the builder (the method names of src/server/store/repositories.ts at f5507ea^ and at
//     REV, compared), and the spreads of repositories added since (`...stuckJobs(x)`);
//   - the files of repositories added since (sql/terminal-health.ts, sql/stuck-jobs.ts);
//   - a file's top-level declarations used only by what is left out (to a fixed point).
// Methods that existed before and grew since are counted whole, so the figure errs against us.
// Prints lines and code lines (no blank line, no comment-only line), as store-lines.sh does.
//   usage: node scripts/store-lines-like.mjs [REV]
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const rev = process.argv[2] ?? 'HEAD';
const BUILDER = 'f5507ea';
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
const show = (r, f) => git('show', `${r}:${f}`);
const parse = (name, text) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);

/** The method names (members of an interface, not of the types inside one) in the store's repositories.ts at a revision. */
function methods(r) {
  const names = new Set();
  for (const s of parse('repositories.ts', show(r, 'src/server/store/repositories.ts')).statements) {
    if (!ts.isInterfaceDeclaration(s)) continue;
    for (const m of s.members) if (ts.isMethodSignature(m) && ts.isIdentifier(m.name)) names.add(m.name.text);
  }
  return names;
}
const before = methods(`${BUILDER}^`);
const added = new Set([...methods(rev)].filter((m) => !before.has(m)));
const ADDED_FILES = new Set(['src/server/store/sql/terminal-health.ts', 'src/server/store/sql/stuck-jobs.ts']);
const ADDED_SPREADS = new Set(['stuckJobs', 'terminalHealth']);

const files = git('ls-tree', '--name-only', rev, 'src/server/store/sql/')
  .split('\n').filter((f) => f.endsWith('.ts') && !f.endsWith('/exec.ts') && !ADDED_FILES.has(f))
  .concat(['src/server/store/sqlite/dialect.ts', 'src/server/store/postgres/dialect.ts', 'src/server/store/webhook-rows.ts']);

let lines = 0;
let code = 0;
const perFile = [];
for (const file of files) {
  const l0 = lines, c0 = code;
  const text = show(rev, file);
  const source = parse(file, text);
  /** Character ranges left out. */
  const out = [];
  const memberName = (m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : undefined);
  const visit = (n) => {
    if (ts.isObjectLiteralExpression(n)) {
      for (const m of n.properties) {
        const name = memberName(m);
        const spread = ts.isSpreadAssignment(m) && ts.isCallExpression(m.expression) && ts.isIdentifier(m.expression.expression) ? m.expression.expression.text : undefined;
        if ((name !== undefined && added.has(name)) || (spread !== undefined && ADDED_SPREADS.has(spread))) out.push([m.getFullStart(), m.getEnd() + (text[m.getEnd()] === ',' ? 1 : 0)]);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  // Top-level declarations used only inside what is left out.
  const inOut = (pos) => out.some(([a, b]) => pos >= a && pos < b);
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of source.statements) {
      const names = ts.isFunctionDeclaration(s) && s.name ? [s.name.text]
        : ts.isVariableStatement(s) ? s.declarationList.declarations.filter((d) => ts.isIdentifier(d.name)).map((d) => d.name.text)
        : ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) ? [s.name.text] : [];
      if (names.length === 0 || inOut(s.getStart()) || ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export) continue;
      const uses = [];
      for (const name of names) {
        for (const match of text.matchAll(new RegExp(`\\b${name}\\b`, 'g'))) {
          if (match.index < s.getStart() || match.index >= s.getEnd()) uses.push(match.index);
        }
      }
      if (uses.length > 0 && uses.every(inOut)) {
        out.push([s.getFullStart(), s.getEnd()]);
        changed = true;
      }
    }
  }
  // A line is left out when every character on it that is not blank is in a range left out.
  let at = 0;
  for (const line of text.split('\n')) {
    const start = at;
    at += line.length + 1;
    const kept = [...line].some((c, i) => !/\s/.test(c) && !inOut(start + i));
    if (!kept && line.trim() !== '') continue;
    if (line === '' && at > text.length) continue; // the newline at the end
    lines++;
    if (!/^[ \t]*($|\/\/|\/\*|\*)/.test(line)) code++;
  }
  perFile.push(`  ${file.replace('src/server/store/', '')}: ${lines - l0} lines ${code - c0} code`);
}
if (process.env.STORE_LINES_FILES) console.log(perFile.join('\n'));
console.log(`methods added since the builder (left out): ${[...added].sort().join(', ')}`);
console.log(`${rev}  like for like  ${String(lines).padStart(5)} lines ${String(code).padStart(5)} code`);
