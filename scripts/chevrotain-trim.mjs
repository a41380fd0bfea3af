// An esbuild plugin that leaves out of the bundle the parts of chevrotain's lexer that bobina's
// lexer (src/parse/tokens.ts: safeMode, skipValidations, positionTracking "onlyOffset", every
// RegExp pattern with a flag) never runs, and that every process would otherwise pay for at start:
//
// 1. The 65,536-entry char-code table chevrotain fills at the first `new Lexer()` whatever the
//    options. Only the first-character optimisation reads it, and safeMode turns that off; the
//    table is now filled only when safeMode is off (~7.7 M instructions at every start), and the
//    optimisation's analysis itself (run only with safeMode off) is replaced by a throw.
// 2. @chevrotain/regexp-to-ast (a parser of RegExp sources, 10 KB minified): used only by the
//    definition checks (skipped), the optimisation (off), line-break analysis (off with
//    "onlyOffset") and the ASCII-class fast path (only for RegExps without flags). In its place, a
//    module whose parser throws if it is ever asked to parse.
// 3. Its "first char" analysis of RegExps (lib/src/scan/reg_exp.js, 3 KB minified): called only for
//    the optimisation (off with safeMode), line-break analysis (off with "onlyOffset") and the
//    definition checks (left out, below). In its place, a module whose functions throw if called.
// 4. The lexer-definition checks (`skipValidations: false`): bobina's tests run them on a lexer
//    built from node_modules; in the bundle, a Lexer asked for them throws instead.
// 5. The long texts of four errors thrown for a lexer configured in ways bobina's is not (a boolean
//    config, a line-terminator pattern without its characters, ensureOptimizations, a token type's
//    `parent`): they still throw, with one short text.
// 6. Position tracking other than "onlyOffset" (the token makers and end-position update of "full"
//    and "onlyStart": a lexer asked for them throws) and the init-time performance tracer
//    (`traceInitPerf`: a lexer asked for it throws); and the sentence that is the value of
//    Lexer.SKIPPED (a marker compared by identity, which bobina's lexer never uses) is shorter.
//    (~0.35 KB of a bundle's gzip with 5.)
//
// The tests build a lexer with chevrotain's checks from node_modules (not trimmed), and compare the
// trimmed build's bytes with the source's for every fixture and template (test/browser-bundle.test.ts,
// test/startup.test.ts). A chevrotain update that moves the code below fails the build here.

const CHANGED = "/*! bobina's build changed this file (scripts/chevrotain-trim.mjs): the char-code table is filled only when safeMode is off, and the first-char optimisation is left out. */\n";

// The first-char optimisation's analysis (and its messages), run only with safeMode off: in its
// place, a throw (with safeMode off, the RegExp analysis it calls is left out too).
const OPTIMISATION = /\n    if \(!options\.safeMode\) \{\n        tracer\("First Char Optimization", [\s\S]*?\n            \}, \[\]\);\n        \}\);\n    \}\n    return \{\n/;
const OPTIMISATION_LEFT_OUT = `
    if (!options.safeMode) throw new Error("bobina's build leaves out chevrotain's first-char optimisation (scripts/chevrotain-trim.mjs): build the lexer with safeMode");
    return {
`;

const TABLE_CALL = `    tracer("initCharCodeToOptimizedIndexMap", () => {
        initCharCodeToOptimizedIndexMap();
    });`;
const TABLE_CALL_GUARDED = `    if (!options.safeMode) tracer("initCharCodeToOptimizedIndexMap", () => {
        initCharCodeToOptimizedIndexMap();
    });`;

const PUBLIC_CHANGED = "/*! bobina's build changed this file (scripts/chevrotain-trim.mjs): the lexer-definition checks, the init tracer and position tracking other than onlyOffset are left out, and three configuration errors and Lexer.SKIPPED have a shorter text. */\n";
const PARENT_CHANGED = "/*! bobina's build changed this file (scripts/chevrotain-trim.mjs): a shorter text for the error of a token type's `parent`. */\n";
const CHECKS = /\b(performRuntimeChecks|performWarningRuntimeChecks|validatePatterns)\(/g;
const CHECKS_LEFT_OUT = `
function checksLeftOut() {
    throw new Error("bobina's build leaves out chevrotain's lexer-definition checks (scripts/chevrotain-trim.mjs): build the lexer with skipValidations: true");
}
`;

const REGEXP_TO_AST_STUB = `/*! bobina's build replaced @chevrotain/regexp-to-ast with this stub (scripts/chevrotain-trim.mjs): bobina's lexer never parses a RegExp. */
const LEFT_OUT = "bobina's build leaves out chevrotain's RegExp analysis (scripts/chevrotain-trim.mjs): build the lexer with safeMode, skipValidations, positionTracking 'onlyOffset' and flagged RegExps";
export class RegExpParser { pattern() { throw new Error(LEFT_OUT); } }
export class BaseRegExpVisitor { visit() { throw new Error(LEFT_OUT); } }
`;

const REG_EXP_STUB = `/*! bobina's build replaced chevrotain's lib/src/scan/reg_exp.js with this stub (scripts/chevrotain-trim.mjs): bobina's lexer never analyses a RegExp. */
export const failedOptimizationPrefixMsg = "";
function leftOut() { throw new Error("bobina's build leaves out chevrotain's RegExp analysis (scripts/chevrotain-trim.mjs)"); }
export { leftOut as getOptimizedStartCodesIndices, leftOut as canMatchCharCode };
`;

const CONFIG_MESSAGES = /(?:"The second argument to the Lexer constructor[^"]*" \+\s*"a boolean 2nd argument is no longer supported"|"Error: Missing <lineTerminatorCharacters> property[^"]*" \+\s*"[^"]*MISSING_LINE_TERM_CHARS"|`Lexer Modes: < \$\{unOptimizedModes\.join\(", "\)\} > cannot be optimized\.\\n` \+\s*'[^']*' \+\s*"[^"]*how to resolve these issues\.")/g;
const PARENT_MESSAGE = /"The parent property is no longer supported\.\\n" \+\s*"[^"]*for details\."/;
const CONFIG_LEFT_OUT = JSON.stringify("lexer config unsupported (scripts/chevrotain-trim.mjs)");

// 6: each edit must match exactly once.
const POSITION_LEFT_OUT = "bobina's build leaves out chevrotain's position tracking other than onlyOffset (scripts/chevrotain-trim.mjs)";
const PUBLIC_EDITS = [
  // The tracer: each phase just runs.
  { from: /\n {8}this\.TRACE_INIT = \(phaseDesc, phaseImpl\) => \{\n[\s\S]*?\n {8}\};\n/, to: '\n        this.TRACE_INIT = (phaseDesc, phaseImpl) => phaseImpl();\n' },
  {
    from: /\n {8}const traceInitVal = this\.config\.traceInitPerf;\n[\s\S]*?\n {8}else if \(typeof traceInitVal === "number"\) \{\n[^\n]*\n[^\n]*\n {8}\}\n/,
    to: `\n        if (this.config.traceInitPerf) throw Error("bobina's build leaves out chevrotain's init tracer (scripts/chevrotain-trim.mjs)");\n`,
  },
  // The token makers of "full" and "onlyStart" (and the end-position update only "full" runs).
  {
    from: /\n {16}if \(\/full\/i\.test\(this\.config\.positionTracking\)\) \{\n {20}this\.createTokenInstance = this\.createFullToken;\n {16}\}\n {16}else if \(\/onlyStart\/i\.test\(this\.config\.positionTracking\)\) \{\n {20}this\.createTokenInstance = this\.createStartOnlyToken;\n {16}\}\n {16}else if/,
    to: `\n                if (/full|onlyStart/i.test(this.config.positionTracking)) {\n                    throw Error(${JSON.stringify(POSITION_LEFT_OUT)});\n                }\n                else if`,
  },
  { from: /\n {4}updateTokenEndLineColumnLocation\([\s\S]*?\n {4}\}\n(?= {4}computeNewColumn\()/, to: '\n' },
  { from: /\n {4}createStartOnlyToken\([\s\S]*?\n {4}\}\n {4}createFullToken\([\s\S]*?\n {4}\}\n(?= {4}addTokenUsingPush\()/, to: '\n' },
  { from: /\nLexer\.SKIPPED = "This marks a skipped Token pattern[^;]*;\n/, to: '\nLexer.SKIPPED = "Lexer.SKIPPED (text shortened by scripts/chevrotain-trim.mjs)";\n' },
];

const LEXER_PUBLIC = /[\\/]node_modules[\\/]chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]lexer_public\.js$/;
const LEXER = /[\\/]node_modules[\\/]chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]lexer\.js$/;
const TOKENS_PUBLIC = /[\\/]node_modules[\\/]chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]tokens_public\.js$/;
const REG_EXP = /[\\/]node_modules[\\/]chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]reg_exp\.js$/;
const REGEXP_TO_AST = /[\\/]node_modules[\\/]@chevrotain[\\/]regexp-to-ast[\\/]lib[\\/]src[\\/]api\.js$/;

export function chevrotainTrim() {
  return {
    name: 'chevrotain-trim',
    setup(build) {
      build.onLoad({ filter: LEXER }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = (await readFile(args.path, 'utf8')).replace(/\r\n/g, '\n');
        if (source.split(TABLE_CALL).length !== 2) {
          throw new Error(`chevrotain-trim: ${args.path} no longer fills its char-code table as expected; update scripts/chevrotain-trim.mjs`);
        }
        if (!OPTIMISATION.test(source)) {
          throw new Error(`chevrotain-trim: ${args.path} no longer runs its first-char optimisation as expected; update scripts/chevrotain-trim.mjs`);
        }
        return { contents: CHANGED + source.replace(TABLE_CALL, TABLE_CALL_GUARDED).replace(OPTIMISATION, OPTIMISATION_LEFT_OUT), loader: 'js' };
      });
      build.onLoad({ filter: LEXER_PUBLIC }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = await readFile(args.path, 'utf8');
        const calls = source.match(CHECKS) ?? [];
        // Each check is imported once and called once.
        if (calls.length !== 3 || new Set(calls).size !== 3) {
          throw new Error(`chevrotain-trim: ${args.path} no longer calls its three definition checks as expected; update scripts/chevrotain-trim.mjs`);
        }
        if ((source.match(CONFIG_MESSAGES) ?? []).length !== 3) {
          throw new Error(`chevrotain-trim: ${args.path} no longer throws its three configuration errors as expected; update scripts/chevrotain-trim.mjs`);
        }
        let edited = source.replace(/\r\n/g, '\n').replace(CHECKS, 'checksLeftOut(').replace(CONFIG_MESSAGES, CONFIG_LEFT_OUT);
        for (const { from, to } of PUBLIC_EDITS) {
          if ((edited.match(new RegExp(from.source, 'g')) ?? []).length !== 1) {
            throw new Error(`chevrotain-trim: ${args.path} no longer has ${from.source.slice(0, 50)}… as expected; update scripts/chevrotain-trim.mjs`);
          }
          edited = edited.replace(from, to);
        }
        return { contents: PUBLIC_CHANGED + edited + CHECKS_LEFT_OUT, loader: 'js' };
      });
      build.onLoad({ filter: TOKENS_PUBLIC }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = await readFile(args.path, 'utf8');
        if (!PARENT_MESSAGE.test(source)) {
          throw new Error(`chevrotain-trim: ${args.path} no longer throws its "parent" error as expected; update scripts/chevrotain-trim.mjs`);
        }
        return { contents: PARENT_CHANGED + source.replace(PARENT_MESSAGE, CONFIG_LEFT_OUT), loader: 'js' };
      });
      build.onLoad({ filter: REG_EXP }, () => ({ contents: REG_EXP_STUB, loader: 'js' }));
      build.onLoad({ filter: REGEXP_TO_AST }, () => ({ contents: REGEXP_TO_AST_STUB, loader: 'js' }));
    },
  };
}
