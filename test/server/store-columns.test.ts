// sql/columns.ts: a table's columns written once make the SELECT list, the reader, INSERT and SET.
// The contract suites (store.test.ts, store-postgres.test.ts) run every repository through it on
// both backends; this pins the statements it writes.
import { describe, expect, it } from 'vitest';
import { asFlag, asJson, asText, asTime, Table } from '../../src/server/store/sql/columns.js';
import { render } from '../../src/server/store/sql/statement.js';
import { POSTGRES } from '../../src/server/store/postgres/dialect.js';
import { SQLITE } from '../../src/server/store/sqlite/dialect.js';

interface Thing { id: number; name: string | null; on: boolean; tags: string[]; at: Date | null }
const THING = new Table<Thing>({ id: 'id', name: ['name', asText], on: ['is_on', asFlag], tags: ['tags', asJson], at: ['made_at', asTime] });
/** …its name read from a joined table `t`. */
const JOINED = new Table<Thing>({ ...THING.columns, name: ['t.name', asText] });

describe('a table of columns', () => {
  it('selects each column once, under the alias given unless it names its own', () => {
    expect(THING.select().sql).toBe('id, name, is_on, tags, made_at');
    expect(JOINED.select('c').sql).toBe('c.id, t.name, c.is_on, c.tags, c.made_at');
  });

  it('reads a row by each column’s name without its alias, through its codec and the dialect', () => {
    const row = { id: 7, name: Buffer.from('ab\u0000c'), is_on: true, tags: ['x'], made_at: 1_700_000_000_000 };
    expect(JOINED.read(row, POSTGRES)).toEqual({ id: 7, name: 'ab\u0000c', on: true, tags: ['x'], at: new Date(1_700_000_000_000) });
    expect(THING.read({ id: 1, name: null, is_on: 0, tags: '[]', made_at: null }, SQLITE)).toEqual({ id: 1, name: null, on: false, tags: [], at: null });
  });

  it('inserts the fields given, one row per value, and binds them as the dialect does', () => {
    const at = new Date(5);
    const one = render(THING.insert({ id: 1, name: 'a', on: true, tags: ['t'], at }), SQLITE);
    expect(one.text).toBe('(id, name, is_on, tags, made_at) VALUES (?, ?, ?, ?, ?)');
    expect(one.values).toEqual([1, 'a', 1, '["t"]', 5]);
    const two = render(THING.insert([{ id: 1, on: false }, { id: 2, on: true }]), POSTGRES);
    expect(two.text).toBe('(id, is_on) VALUES ($1, $2), ($3, $4)');
    expect(two.values).toEqual([1, false, 2, true]);
  });

  it('sets only the fields given; null is a value, undefined leaves the column as it is', () => {
    const set = render(THING.set({ name: null, on: undefined, at: new Date(9) }), POSTGRES);
    expect(set.text).toBe('name = $1, made_at = $2');
    expect(set.values).toEqual([null, 9]);
  });
});
