// A table's columns written once: each field of a domain value with the column that holds it and
// how it is kept there. The SELECT list, the row reader, an INSERT's columns with their values and an
// UPDATE's SET are made from it, so a field is never read from one column and written to another,
// and a column added to the value's type is a compile error until it has its place here.
import type { Dialect } from './dialect.js';
import type { Exec } from './exec.js';
import { date, join, json, raw, sql, utf8, type Sql } from './statement.js';

/** How a field is kept in its column, written (statement.ts encodes it) and read back. */
export interface Codec {
  write(value: unknown): unknown;
  read(value: unknown, d: Dialect): unknown;
}

const same = (v: unknown) => v;

/** Kept as the driver binds and returns it (strings, numbers, null). */
export const asIs: Codec = { write: same, read: same };
/** A flag: 0/1 on SQLite, boolean on PostgreSQL. */
export const asFlag: Codec = { write: same, read: (v, d) => d.flag(v) };
/** JSON text (SQLite) or JSONB (PostgreSQL). */
export const asJson: Codec = { write: json, read: (v, d) => d.json(v) };
/** A partner's free text (it may hold U+0000). */
export const asText: Codec = { write: (v) => utf8(v as string | null), read: (v, d) => d.text(v) };
/** A time as epoch milliseconds, or null. */
export const asTime: Codec = { write: same, read: date };
/** Bytes (BLOB, BYTEA) as a Uint8Array. */
export const asBytes: Codec = { write: same, read: (v) => new Uint8Array(v as Buffer) };

/** A field's column: its name (`alias.name` to select it from a joined table), and its codec (default asIs). */
export type Column = string | readonly [name: string, codec: Codec];
export type Columns<T> = { readonly [K in keyof T]-?: Column };

const nameOf = (c: Column) => (typeof c === 'string' ? c : c[0]);
const codecOf = (c: Column) => (typeof c === 'string' ? asIs : c[1]);
/** The key a row has for the column: its name without the table alias. */
const keyOf = (c: Column) => nameOf(c).slice(nameOf(c).lastIndexOf('.') + 1);

export class Table<T> {
  readonly #fields: ReadonlyArray<[field: keyof T, column: Column]>;

  constructor(readonly columns: Columns<T>) {
    this.#fields = Object.entries(columns) as Array<[keyof T, Column]>;
  }

  /** The columns to SELECT, each under `alias.` when one is given (and its name has none). */
  select(alias?: string): Sql {
    return raw(this.#fields.map(([, c]) => (alias && !nameOf(c).includes('.') ? `${alias}.${nameOf(c)}` : nameOf(c))).join(', '));
  }

  /** The value a row holds. */
  read(row: Record<string, unknown>, d: Dialect): T {
    return Object.fromEntries(this.#fields.map(([f, c]) => [f, codecOf(c).read(row[keyOf(c)], d)])) as T;
  }

  /** The rows a statement returns, read. */
  async all(x: Exec, statement: Sql): Promise<T[]> {
    return (await x.all<Record<string, unknown>>(statement)).map((r) => this.read(r, x.dialect));
  }

  /** The first row a statement returns, read, if any. */
  async one(x: Exec, statement: Sql): Promise<T | undefined> {
    const [r] = await x.all<Record<string, unknown>>(statement);
    return r && this.read(r, x.dialect);
  }

  /** `(a, b) VALUES (?, ?), …`: a row per value (at least one), of the fields the first gives (an undefined field: its column's default). */
  insert(value: Partial<T> | readonly Partial<T>[]): Sql {
    const values = Array.isArray(value) ? value : [value as Partial<T>];
    const given = this.#given(values[0]!);
    const row = (v: Partial<T>) => sql`(${join(given.map(([f, c]) => sql`${codecOf(c).write(v[f])}`))})`;
    return sql`(${raw(given.map(([, c]) => nameOf(c)).join(', '))}) VALUES ${join(values.map(row))}`;
  }

  /** `a = ?, b = ?` of the fields given (an undefined field stays as it is). */
  set(value: Partial<T>): Sql {
    return join(this.#given(value).map(([f, c]) => sql`${raw(nameOf(c))} = ${codecOf(c).write(value[f])}`));
  }

  #given(value: Partial<T>) {
    return this.#fields.filter(([f]) => value[f] !== undefined);
  }
}
