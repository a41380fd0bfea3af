// Migrations under a lock (issue 10 item 9): two real processes starting on one fresh database
// both succeed, never failing with "table … already exists" or "database is locked".
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bobina-migrate-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function usersAdd(db: string, email: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'users', 'add', '--email', email, '--password', 'pw', '--name', email, '--db', db], {
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 20_000,
      killSignal: 'SIGKILL',
    });
    running.add(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, stderr });
    });
  });
}

describe('migrations', () => {
  // Before the lock, about one pair in three failed on a 2-core machine; 12 pairs fail with near certainty.
  it('let two processes start together on a fresh database, every time', async () => {
    const failures: string[] = [];
    const users: number[] = [];
    // One pair at a time: more processes than cores would stagger their start-up and hide the race.
    for (let i = 0; i < 12; i++) {
      const db = join(dir, `fresh-${i}.sqlite`);
      const results = await Promise.all([usersAdd(db, `a${i}@example.com`), usersAdd(db, `b${i}@example.com`)]);
      for (const r of results) if (r.code !== 0) failures.push(r.stderr.trim());
      const conn = new Database(db, { readonly: true });
      try {
        users.push(conn.prepare('SELECT count(*) FROM users').pluck().get() as number);
        const versions = conn.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
        expect(new Set(versions).size).toBe(versions.length);
      } finally {
        conn.close();
      }
    }
    expect(failures).toEqual([]);
    expect(users).toEqual(users.map(() => 2));
  }, 60_000);
});

describe('migration numbers from lanes merged in any order', () => {
  // Lanes merged in any order (issue 22's 9, issue 23's 10 for job lists and 11 for terminal health):
  // a database migrated with a later number before an earlier one existed still gets the earlier one
  // once it ships, and nothing is applied twice.
  it('applies a version below one already applied, once', async () => {
    const { migrate } = await import('../../src/server/store/sqlite/migrate.js');
    const { SQLITE_MIGRATIONS } = await import('../../src/server/store/sqlite-migrations.js');
    const conn = new Database(':memory:');
    try {
      const without9 = SQLITE_MIGRATIONS.filter((m) => m.version !== 9);
      migrate(conn, without9);
      const nine = { version: 9, name: 'a lane merged later', sql: 'CREATE TABLE lane_nine (x INTEGER)' };
      const merged = [...without9.filter((m) => m.version < 9), nine, ...without9.filter((m) => m.version > 9)];
      migrate(conn, merged);
      migrate(conn, merged);
      const versions = conn.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
      expect(versions).toEqual(merged.map((m) => m.version).sort((a, b) => a - b));
      expect(conn.prepare("SELECT name FROM sqlite_master WHERE name = 'lane_nine'").pluck().get()).toBe('lane_nine');
    } finally {
      conn.close();
    }
  });
});
