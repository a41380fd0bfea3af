// One statement run on a test database directly, as another program (or an earlier version of
// bobina, writing rows the current one must still read) would: `?` placeholders on either store.
import type { TestDatabase } from './store-target.js';

export async function rawStatement(db: Pick<TestDatabase, 'kind' | 'location'>, text: string, values: unknown[] = []): Promise<void> {
  if (db.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const conn = new Database(db.location);
    try {
      conn.pragma('busy_timeout = 5000');
      conn.prepare(text).run(...values);
    } finally {
      conn.close();
    }
    return;
  }
  const { default: pg } = await import('pg');
  const url = new URL(db.location);
  const schema = url.searchParams.get('schema');
  url.search = '';
  const client = new pg.Client({ connectionString: url.href, ...(schema ? { options: `-c search_path="${schema}"` } : {}) });
  await client.connect();
  try {
    let n = 0;
    await client.query(text.replace(/\?/g, () => `$${++n}`), values);
  } finally {
    await client.end();
  }
}
