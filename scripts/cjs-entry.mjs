// After tsup: each CommonJS entry (index, delivery) is the ES module build itself, required
// (require(esm), Node 20.19+ and 22.12+, the engines range), so dist/ holds one copy of the
// compiler; its types are the same declarations as the ES module's.
import { copyFileSync, writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
for (const entry of ['index', 'delivery']) {
  writeFileSync(
    new URL(`${entry}.cjs`, dist),
    `// CommonJS entry: the ES module build itself, through require(esm) (Node 20.19+, 22.12+).\n'use strict';\nmodule.exports = require('./${entry}.js');\n`,
  );
  copyFileSync(new URL(`${entry}.d.ts`, dist), new URL(`${entry}.d.cts`, dist));
}
