// SQLite's side of the seam (sql/dialect.ts): `?` placeholders, flags as 0/1, JSON as text. Row
// and advisory locks need nothing: a write transaction holds SQLite's one write lock.
import type { Dialect } from '../sql/dialect.js';
import { raw, sql, Utf8 } from '../sql/statement.js';

export const SQLITE: Dialect = {
  statementText: (s) => s.sql,
  bind(v) {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof Utf8) return v.value;
    return v;
  },
  json: (v) => JSON.parse(v as string),
  flag: (v) => v === 1,
  text: (v) => v as string | null,
  forUpdate: raw(''),
  skipLocked: raw(''),
  byKey: raw(' NOT INDEXED'),
  insertOrder: raw('rowid'),
  bytewise: raw(''),
  emailKey: raw('email'),
  jsonType: raw('TEXT'),
  freeText: raw('TEXT'),
  textKey: (text) => text,
  jsonTexts: (column, alias) => sql`json_each(${column}) AS ${raw(alias)}`,
  lock: () => undefined,
};
