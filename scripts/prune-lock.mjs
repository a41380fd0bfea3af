// Keeps package-lock.json acceptable to `npm ci` when the registry in reach serves only this
// platform's builds of optional native packages (rollup's, for one): npm then records the
// optional dependency names but no entries for them, and `npm ci` rejects the lock as out of sync.
// This drops optional dependency names that have no entry in the lock. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let removed = 0;
for (const [where, pkg] of Object.entries(packages)) {
  if (!pkg.optionalDependencies) continue;
  const nested = where ? `${where}/node_modules/` : 'node_modules/';
  for (const name of Object.keys(pkg.optionalDependencies)) {
    if (packages[nested + name] || packages[`node_modules/${name}`]) continue;
    delete pkg.optionalDependencies[name];
    removed++;
  }
  if (Object.keys(pkg.optionalDependencies).length === 0) delete pkg.optionalDependencies;
}
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`prune-lock: removed ${removed} optional dependency names with no lock entry`);
