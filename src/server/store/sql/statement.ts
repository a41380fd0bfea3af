// The store's statements, written once for both backends: `sql` is a tagged template whose
// interpolated values become parameters and whose interpolated Sql fragments are spliced in. A
// statement is rendered for a Dialect (its placeholders, how it binds values) only when it runs.
import type { Dialect } from './dialect.js';

export class Sql {
  constructor(readonly strings: readonly string[], readonly values: readonly unknown[]) {}
}

/** A JSON column's value: bound as its JSON text on every backend. */
export class Json {
  constructor(readonly value: unknown) {}
}

/** A partner's free text (it may hold U+0000): TEXT on SQLite, UTF-8 BYTEA on PostgreSQL. */
export class Utf8 {
  constructor(readonly value: string | null) {}
}

/**
 * @example
 * sql`SELECT id FROM intentions WHERE user_id = ${accountId} AND estado IN ${list(states)}`
 */
export const sql = (strings: TemplateStringsArray, ...values: unknown[]): Sql => new Sql(strings, values);

/** SQL text as written (never a value from outside). */
export const raw = (text: string): Sql => new Sql([text], []);

export const empty = raw('');

export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return empty;
  return new Sql(['', ...parts.slice(1).map(() => separator), ''], parts);
}

/** `(?, ?, ?)`: a parenthesised list of values, for `IN`. */
export const list = (values: readonly unknown[]): Sql => sql`(${join(values.map((v) => sql`${v}`))})`;

export const json = (value: unknown) => new Json(value);
export const utf8 = (value: string | null) => new Utf8(value);

export interface Rendered {
  text: string;
  values: unknown[];
}

/** The statement's text with the dialect's placeholders, and its values as the dialect binds them. */
export function render(statement: Sql, dialect: Dialect): Rendered {
  let text = '';
  const values: unknown[] = [];
  const walk = (s: Sql) => {
    s.strings.forEach((part, i) => {
      text += part;
      if (i >= s.values.length) return;
      const v = s.values[i];
      if (v instanceof Sql) return walk(v);
      values.push(dialect.bind(encode(v)));
      text += dialect.placeholder(values.length);
    });
  };
  walk(statement);
  return { text, values };
}

/** A time column as read (both backends keep epoch milliseconds), or null. */
export const date = (ms: unknown): Date | null => (ms === null ? null : new Date(ms as number));

/** What both backends store alike: times as epoch milliseconds, bytes as a Buffer, JSON as text, undefined as NULL. */
function encode(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (v instanceof Json) return JSON.stringify(v.value);
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v);
  return v;
}
