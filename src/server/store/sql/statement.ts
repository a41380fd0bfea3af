// The store's statements, written once for both backends: `sql` is sql-template-tag's tagged
// template, whose interpolated values become parameters and whose interpolated Sql fragments are
// spliced in (flattened as they are made). A statement is rendered for a Dialect (its placeholders,
// how it binds values) only when it runs; the values both backends store alike are encoded here.
import { empty, join as joinAll, raw, Sql } from 'sql-template-tag';
import type { Dialect } from './dialect.js';

export { default as sql } from 'sql-template-tag';
export { empty, raw, Sql };

/** A JSON column's value: bound as its JSON text on every backend. */
export class Json {
  constructor(readonly value: unknown) {}
}

/** A partner's free text (it may hold U+0000): TEXT on SQLite, UTF-8 BYTEA on PostgreSQL. */
export class Utf8 {
  constructor(readonly value: string | null) {}
}

/** The parts with `separator` between them (no parts: nothing). */
export const join = (parts: readonly Sql[], separator = ', '): Sql => (parts.length === 0 ? empty : joinAll(parts, separator));

/** `a AND b AND …` of the conditions given (none: `1 = 1`); `given` makes one only for a value that is there. */
export const where = (conditions: ReadonlyArray<Sql | undefined>): Sql => {
  const present = conditions.filter((c): c is Sql => c !== undefined);
  return present.length === 0 ? raw('1 = 1') : joinAll(present, ' AND ');
};
export const given = <T>(value: T | null | undefined, condition: (v: T) => Sql) => (value === undefined || value === null ? undefined : condition(value));

/** `(?, ?, ?)`: a parenthesised list of values, for `IN` (at least one: `IN ()` is no statement on PostgreSQL). */
export const list = (values: readonly unknown[]): Sql => joinAll(values, ', ', '(', ')');

export const json = (value: unknown) => new Json(value);
export const utf8 = (value: string | null) => new Utf8(value);

export interface Rendered {
  text: string;
  values: unknown[];
}

/** The statement's text with the dialect's placeholders, and its values as the dialect binds them. */
export const render = (statement: Sql, dialect: Dialect): Rendered => ({
  text: dialect.statementText(statement),
  values: statement.values.map((v) => dialect.bind(encode(v))),
});

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
