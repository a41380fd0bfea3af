// An esbuild plugin that bundles qrcode's core (the module matrix bobina's raster QR and preview
// use: `require('qrcode/lib/core/qrcode.js').create`) as ES modules rather than as 21 CommonJS
// modules, so that a bundler can rename its functions and leave out what `create` never reaches.
//
// qrcode 1.5 is written as CommonJS: every function is a property (`exports.getPenaltyN1 = …`,
// `Utils.getSymbolSize(…)`) whose name no minifier may shorten, each file is a module wrapper of
// its own (named by its path in a build that keeps names, as dist/ does), and every export stays
// whether used or not. Here each file of lib/core is rewritten as the ES module it plainly is
// (`const X = require('./x')` → `import`, `exports.f = …` → `export const f = …`, `module.exports =
// C` → `export default C`), bundled into one module, and handed back to the build as one CommonJS
// module exporting `create`: still evaluated only when first required (a start-up without a raster
// QR does not pay for it), and `require('dijkstrajs')` left for the build to bundle (so the
// notices still list it). A compile bundle is ~1.5 KB gzip smaller (bench/RESULTS.md).
//
// It also leaves out qrcode's Kanji mode, which bobina never turns on (it is on only when `create`
// is given a `toSJISFunc`; without one, qrcode encodes Kanji text as bytes, as it does here): its
// character class, regular expressions and segment type, ~0.3 KB gzip. `create` given a
// `toSJISFunc` throws instead. (One message changes with it: a string segment forced into numeric
// or alphanumeric mode that holds Kanji is refused with "Suggested mode is: Byte", not "Kanji".)
//
// The rewrite is checked, not assumed: a file whose shape the rules below do not cover fails the
// build, and test/qrcode-esm.test.ts compares the matrices of this build with qrcode's own for the
// fixtures and arbitrary text at every error-correction level. A qrcode update that changes its
// files' shape fails the build here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CORE = /[\\/]node_modules[\\/]qrcode[\\/]lib[\\/]core[\\/][a-z-]+\.js$/;
const ENTRY = /[\\/]node_modules[\\/]qrcode[\\/]lib[\\/]core[\\/]qrcode\.js$/;
const REWRITTEN = Symbol('qrcode-esm: inner build');

const HEADER = "/*! bobina's build rewrote qrcode's core as ES modules and bundled it as one module (scripts/qrcode-esm.mjs). */\n";

const fail = (path, why) => {
  throw new Error(`qrcode-esm: ${path}: ${why}; update scripts/qrcode-esm.mjs`);
};

const LEFT_OUT = "bobina's build leaves out qrcode's Kanji mode (scripts/qrcode-esm.mjs)";

/** The Kanji mode left out: each edit must match its file exactly `count` times. */
const KANJI_LEFT_OUT = {
  'qrcode.js': [{ from: 'Utils.setToSJISFunction(options.toSJISFunc)', to: `throw new Error(${JSON.stringify(LEFT_OUT)})`, count: 1 }],
  'segments.js': [
    {
      from: `  if (Utils.isKanjiModeEnabled()) {
    byteSegs = getSegments(Regex.BYTE, Mode.BYTE, dataStr)
    kanjiSegs = getSegments(Regex.KANJI, Mode.KANJI, dataStr)
  } else {
    byteSegs = getSegments(Regex.BYTE_KANJI, Mode.BYTE, dataStr)
    kanjiSegs = []
  }`,
      to: `  byteSegs = getSegments(Regex.BYTE_KANJI, Mode.BYTE, dataStr)
  kanjiSegs = []`,
      count: 1,
    },
    { from: 'Utils.isKanjiModeEnabled()', to: 'false', count: 3 },
  ],
  'mode.js': [{ from: '  else if (Regex.testKanji(dataStr)) return exports.KANJI\n', to: '', count: 1 }],
  'regex.js': [
    { from: /^let kanji = [^\n]*(?:\n  [^\n]*)*\nkanji = kanji\.replace\(\/u\/g, '\\\\u'\)\n/m, to: '', count: 1 },
    { from: /^const byte = .*\n/m, to: '', count: 1 },
    { from: /^exports\.KANJI = .*\n/m, to: '', count: 1 },
    { from: /^exports\.BYTE = .*\n/m, to: '', count: 1 },
    { from: /^const TEST_KANJI = .*\n/m, to: '', count: 1 },
    { from: /^exports\.testKanji = function testKanji \(str\) \{\n.*\n\}\n/m, to: '', count: 1 },
  ],
};

/** kanji-data.js: a segment type only Kanji mode makes. */
const KANJI_DATA_STUB = `function leftOut () { throw new Error(${JSON.stringify(LEFT_OUT)}) }
module.exports = leftOut
leftOut.getBitsLength = leftOut
`;

/** A core file with the Kanji mode left out. */
function withoutKanji(path, source) {
  const file = path.split(/[\\/]/).pop();
  if (file === 'kanji-data.js') return KANJI_DATA_STUB;
  let out = source.replace(/\r\n/g, '\n');
  for (const { from, to, count } of KANJI_LEFT_OUT[file] ?? []) {
    const found = typeof from === 'string' ? out.split(from).length - 1 : (out.match(new RegExp(from.source, 'gm')) ?? []).length;
    if (found !== count) fail(path, `expected ${count} of ${String(from).slice(0, 60)}…, found ${found}`);
    out = typeof from === 'string' ? out.split(from).join(to) : out.replace(from, to);
  }
  return out;
}

/** True when a core file is `module.exports = Name` (a default export) rather than `exports.*`. */
function isDefaultModule(path) {
  return /^module\.exports = \w+$/m.test(readFileSync(path, 'utf8'));
}

/** One file of qrcode's core as an ES module. */
export function coreToEsm(path, source) {
  const text = source.replace(/\r\n/g, '\n');
  const dir = dirname(path);
  let out = text
    // const X = require('./x').name
    .replace(/^const (\w+) = require\('(\.\/[\w-]+)'\)\.(\w+)$/gm, (_, local, from, name) => `import { ${name} as ${local} } from '${from}.js'`)
    // const X = require('./x')
    .replace(/^const (\w+) = require\('(\.\/[\w-]+)'\)$/gm, (_, local, from) =>
      isDefaultModule(join(dir, `${from}.js`)) ? `import ${local} from '${from}.js'` : `import * as ${local} from '${from}.js'`,
    )
    // const dijkstra = require('dijkstrajs'): a CommonJS package, left to the outer build.
    .replace(/^const (\w+) = require\('dijkstrajs'\)$/gm, (_, local) => `import ${local} from 'dijkstrajs'`)
    .replace(/^module\.exports = (\w+)$/gm, (_, name) => `export default ${name}`);
  // The code without its comments and strings (which name these functions freely), for the check below.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
  const exported = [...out.matchAll(/^exports\.(\w+) = /gm)].map((m) => m[1]);
  if (new Set(exported).size !== exported.length) fail(path, 'a property of exports is assigned twice');
  for (const name of exported) {
    // `exports.name` becomes the binding `name`: nothing else in the file may declare or take that
    // name (a parameter or local of that name would silently capture a reference).
    const bare = [...code.matchAll(new RegExp(`(?<![.\\w$])${name}(?![\\w$])`, 'g'))].length;
    const ownFunction = new RegExp(`^exports\\.${name} = function ${name} \\(`, 'm').test(text) ? 1 : 0;
    if (bare !== ownFunction) fail(path, `"${name}" is both exported and a name of its own in the file`);
  }
  out = out.replace(/^exports\.(\w+) = /gm, 'export const $1 = ').replace(/(?<![\w$.])exports\.(\w+)/g, '$1');
  if (/\brequire\(|\bmodule\.exports\b|(?<![\w$.])exports\b/.test(out)) fail(path, 'a require or exports the rewrite does not cover');
  return out;
}

export function qrcodeEsm() {
  return {
    name: 'qrcode-esm',
    setup(build) {
      build.onLoad({ filter: ENTRY }, async (args) => {
        if (args.pluginData === REWRITTEN) return undefined;
        const esbuild = await import('esbuild');
        const inner = await esbuild.build({
          entryPoints: [args.path],
          bundle: true,
          format: 'esm',
          platform: 'neutral',
          target: build.initialOptions.target,
          external: ['dijkstrajs'],
          write: false,
          logLevel: 'silent',
          legalComments: 'none',
          plugins: [
            {
              name: 'qrcode-core-as-esm',
              setup(b) {
                b.onLoad({ filter: CORE }, (a) => ({ contents: coreToEsm(a.path, withoutKanji(a.path, readFileSync(a.path, 'utf8'))), loader: 'js' }));
              },
            },
          ],
        });
        const code = inner.outputFiles[0].text;
        const IMPORT = /^import (\w+) from "dijkstrajs";\n/m;
        const EXPORT = /\nexport \{\n {2}create\n\};\n$/;
        if (!IMPORT.test(code) || !EXPORT.test(code)) fail(args.path, 'the bundled core does not import dijkstrajs and export create as expected');
        const contents = HEADER + code.replace(IMPORT, 'var $1 = require("dijkstrajs");\n').replace(EXPORT, '\nexports.create = create;\n');
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
