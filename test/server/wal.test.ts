// The write-ahead log stays bounded under sustained writes and is cut to nothing when writes stop
// (issue 10 item 2): the checkpointer escalates from PASSIVE to TRUNCATE past a size, and
// truncates when idle. Scaled down to seconds here; bench/soak.mjs runs it for minutes over HTTP.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/server/store/repositories.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import type { BackgroundWorker } from '../../src/server/workers/worker.js';

const MiB = 1024 * 1024;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
let dir: string | undefined;
let store: Store | undefined;
let workers: BackgroundWorker[] = [];
afterEach(async () => {
  for (const w of workers) await w.stop();
  workers = [];
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const walSize = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

describe('the SQLite WAL', () => {
  it('stays bounded under sustained writes and shrinks to nothing once they stop', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bobina-wal-'));
    const file = join(dir, 'db.sqlite');
    const s = openSqliteStore(file, { checkpoints: { everyMs: 20, truncateAboveBytes: 2 * MiB, idleMs: 300, busyMs: 1000 } });
    store = s;
    const accountId = (await s.accounts.create({ email: 'w@example.com', name: 'W', passwordHash: 'h', metadata: [], roles: [] })).id;
    workers = s.workers();
    for (const w of workers) await w.start(silent);

    // ~16 kB per insert, one commit each, 48 MiB in all (~70 kB of WAL pages each: over 200 MB
    // through the WAL). A fixed amount, not a fixed time: a busy machine writes less in a given
    // time, and the WAL's bound is in bytes, so a short run could not tell bounded from unbounded.
    const bytes = new Uint8Array(16 * 1024).fill(0x41);
    let written = 0;
    let largest = 0;
    while (written < 48 * MiB) {
      for (let i = 0; i < 20; i++) {
        await s.intentions.insert({
          accountId, referencia: null, conteudo: 'x', terminalId: null, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
          aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes, diagnostics: [], createdAt: new Date(),
        });
        written += bytes.length;
      }
      largest = Math.max(largest, walSize(file));
      // Yield now and then, as a server between requests does: the checkpointer needs a gap between writes.
      await new Promise((r) => setImmediate(r));
    }
    // Unbounded, the WAL holds every page written (more than the bytes inserted). Bounded, it stays
    // under twice the limit plus the 16 statements between two looks at the file (~1.2 MB here).
    expect(largest).toBeLessThan(written / 6);
    expect(largest).toBeLessThan(2 * 2 * MiB + 3 * MiB);

    const idleBy = Date.now() + 5000;
    while (walSize(file) > 0 && Date.now() < idleBy) await new Promise((r) => setTimeout(r, 50));
    expect(walSize(file)).toBe(0);
  }, 60_000);
});
