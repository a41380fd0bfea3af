// A command that needs an optional package which is not installed (the service's fastify and
// SQLite driver, resvg for PNG previews: optional peer dependencies, so that installing bobina for
// compile() stays light) ends with one line naming what to install, never a stack trace.
import { MissingPackageError } from '../node-require.js';

/** The optional peer dependencies and their ranges, from package.json (JSON, injected by tsup). */
declare const BOBINA_PEERS: string;
const PEERS: Readonly<Record<string, string>> = typeof BOBINA_PEERS === 'string' ? (JSON.parse(BOBINA_PEERS) as Record<string, string>) : {};

/** Peers that serve one feature of their own; every other peer is the service's. */
const FEATURES: Readonly<Record<string, string>> = {
  '@resvg/resvg-js': 'a PNG preview',
  pg: 'the PostgreSQL store',
  'prom-client': 'metrics (--metrics-token, --metrics-port)',
};

/** The package a "module not found" error names (`@scope/name/deep` → `@scope/name`). */
function missingPackage(err: unknown): string | undefined {
  if (err instanceof MissingPackageError) return err.packageName;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const id = /Cannot find (?:package|module) '([^']+)'/.exec(String(message))?.[1];
  if (!id) return undefined;
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** One line saying what to install, when `err` is an optional peer dependency that is missing. */
export function missingPackageMessage(err: unknown): string | undefined {
  const name = missingPackage(err);
  if (name === undefined || !Object.hasOwn(PEERS, name)) return undefined;
  const feature = FEATURES[name];
  const group = feature ? [name] : Object.keys(PEERS).filter((peer) => !Object.hasOwn(FEATURES, peer));
  return `${feature ?? 'the service'} needs ${name}, which is not installed; install it with: npm install ${group.map((p) => `${p}@${PEERS[p]}`).join(' ')}`;
}
