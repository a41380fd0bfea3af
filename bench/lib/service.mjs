// A `bobina serve` for a benchmark: one account (bench@example.com) with an API key and the
// terminals asked for, set up with the CLI on a store from stores.mjs, then the service started on
// a free 127.0.0.1 port; serve() again on the same store is a second instance. Processes are
// cleaned up by processes.mjs.
import { spawnSync } from 'node:child_process';
import { freePort, start } from './processes.mjs';

export const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

/** The children's environment: no database of the caller's shell, warnings only in the logs. */
export const benchEnv = { ...process.env, LOG_LEVEL: 'warn' };
delete benchEnv.DATABASE_URL;
delete benchEnv.BOBINA_DB;

export function cli(cliPath, store, ...args) {
  const r = spawnSync(process.execPath, [cliPath, ...args, ...store.flags], { encoding: 'utf8', env: benchEnv });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/**
 * The account, its API key, and terminals as asked: `[id, flags, printer?]` (printer default
 * `printer`); `keys[id]` is the terminal's key when its flags include --print-key.
 */
export function account(cliPath, store, terminals = [], printer = 'MAKER5T20') {
  cli(cliPath, store, 'users', 'add', '--email', 'bench@example.com', '--password', 'bench-pw', '--name', 'Bench');
  const apiKey = cli(cliPath, store, 'keys', 'create', '--email', 'bench@example.com').trim();
  const keys = {};
  for (const [id, extra, model] of terminals) {
    keys[id] = cli(cliPath, store, 'terminals', 'add', '--email', 'bench@example.com', '--terminal', id, '--printer', model ?? printer, ...extra).trim().split('\n').at(-1);
  }
  return { apiKey, keys };
}

/** `bobina serve` on `store` with `flags`, once it listens: `{ base, proc }`. */
export async function serve(cliPath, store, flags = []) {
  const port = await freePort();
  const proc = await start([cliPath, 'serve', '--port', String(port), '--host', '127.0.0.1', ...store.flags, ...flags], 'listening on', benchEnv);
  return { base: `http://127.0.0.1:${port}`, proc };
}
