// Moves WAL checkpoints off the request thread: the serving connection never checkpoints itself
// (wal_autocheckpoint = 0); a worker thread with its own connection copies the WAL back into the
// database every half second. Without it, every ~1,000 WAL pages one insert stalls while the
// checkpoint copies and syncs, which is what shows up as p99 latency.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

export function startCheckpointer(file: string, everyMs = 500): () => Promise<void> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  worker.unref();
  return () =>
    new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('stop');
    });
}
