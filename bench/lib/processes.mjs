// The processes a benchmark starts (bobina serve, agent, a peer server): a free port on 127.0.0.1,
// start-and-wait-for-ready, and cleanup by pid when the benchmark ends, fails or is interrupted.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const started = new Set();

function killAll() {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid, 'SIGKILL');
  started.clear();
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts `node ...args` and resolves once its stderr has said `readyText`; rejects if it exits first. */
export function start(args, readyText, env = process.env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      if (err.includes(readyText)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/** SIGTERM, then waits for the exit. */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(child.pid, 'SIGTERM');
  await exited;
}

export { killAll as stopAll };
