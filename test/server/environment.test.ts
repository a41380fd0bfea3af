// environment.ts: the one module that reads the environment (`bobina serve --help` lists its table).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DB, postgresSettings, sqliteSync, storeChoice, terminalKey, VARIABLES, variablesOf, webhookPolicy, webhookSettings } from '../../src/server/environment.js';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('the environment', () => {
  it('is read in environment.ts only: no other source file under src/ names process.env outside a comment', () => {
    const readers = files('src').filter((f) => f !== join('src', 'server', 'environment.ts'))
      .filter((f) => readFileSync(f, 'utf8').split('\n').some((line) => /process\.env/.test(line) && !/^\s*(\/\/|\*)/.test(line)));
    expect(readers).toEqual([]);
  });

  it('chooses the store: a flag, then DATABASE_URL, then BOBINA_DB, then ./bobina.sqlite; both flags refused', () => {
    expect(storeChoice({}, {})).toEqual({ kind: 'sqlite', file: DEFAULT_DB });
    expect(storeChoice({}, { BOBINA_DB: 'a.sqlite' })).toEqual({ kind: 'sqlite', file: 'a.sqlite' });
    expect(storeChoice({}, { BOBINA_DB: 'a.sqlite', DATABASE_URL: 'postgres://h/d' })).toEqual({ kind: 'postgres', url: 'postgres://h/d' });
    expect(storeChoice({ db: 'b.sqlite' }, { DATABASE_URL: 'postgres://h/d' })).toEqual({ kind: 'sqlite', file: 'b.sqlite' });
    expect(storeChoice({ databaseUrl: 'postgres://x/y' }, { BOBINA_DB: 'a.sqlite' })).toEqual({ kind: 'postgres', url: 'postgres://x/y' });
    expect(() => storeChoice({ db: 'b.sqlite', databaseUrl: 'postgres://x/y' }, {})).toThrow(/not both/);
  });

  it('refuses an empty or blank BOBINA_DB (SQLite would open a temporary database), and takes an empty DATABASE_URL as unset', () => {
    expect(() => storeChoice({}, { BOBINA_DB: '' })).toThrow('BOBINA_DB="" names no file');
    expect(() => storeChoice({}, { BOBINA_DB: ' ', DATABASE_URL: '' })).toThrow('BOBINA_DB=" " names no file');
    expect(storeChoice({ db: 'b.sqlite' }, { BOBINA_DB: '' })).toEqual({ kind: 'sqlite', file: 'b.sqlite' });
    expect(storeChoice({}, { BOBINA_DB: '', DATABASE_URL: 'postgres://h/d' })).toEqual({ kind: 'postgres', url: 'postgres://h/d' });
    expect(storeChoice({}, { BOBINA_DB: 'a.sqlite', DATABASE_URL: '' })).toEqual({ kind: 'sqlite', file: 'a.sqlite' });
  });

  it('gives only the settings set, and refuses a number that is not a positive whole number by its name', () => {
    expect(postgresSettings({})).toEqual({});
    expect(postgresSettings({ BOBINA_PG_POOL_SIZE: '4', BOBINA_PG_STATEMENT_TIMEOUT_MS: '' })).toEqual({ poolSize: 4 });
    expect(() => postgresSettings({ BOBINA_PG_CONNECT_TIMEOUT_MS: '1.5' })).toThrow('BOBINA_PG_CONNECT_TIMEOUT_MS="1.5" is not a positive whole number');
    expect(() => webhookSettings({ BOBINA_WEBHOOKS_TIMEOUT_MS: '-1' })).toThrow(/BOBINA_WEBHOOKS_TIMEOUT_MS/);
    expect(webhookSettings({ BOBINA_WEBHOOKS_TIMEOUT_MS: '1000' }).timeoutMs).toBe(1000);
    expect(webhookSettings({ BOBINA_WEBHOOKS_KEEP_DAYS: '7' }).keepMs).toBe(7 * 24 * 3600_000);
    expect(webhookSettings({}).keepMs).toBeUndefined();
    expect(() => webhookSettings({ BOBINA_WEBHOOKS_KEEP_DAYS: '0' })).toThrow(/BOBINA_WEBHOOKS_KEEP_DAYS/);
  });

  it('reads the SQLite sync mode, the webhook policy and the terminal key', () => {
    expect([sqliteSync({}), sqliteSync({ BOBINA_SQLITE_SYNC: 'full' }), sqliteSync({ BOBINA_SQLITE_SYNC: 'off' })]).toEqual(['NORMAL', 'FULL', 'NORMAL']);
    expect(webhookPolicy({ BOBINA_WEBHOOKS_ALLOW_PRIVATE: '1', BOBINA_WEBHOOKS_HTTP_HOSTS: ' A.example, b ', BOBINA_WEBHOOKS_MAX_ENDPOINTS: '2' }))
      .toEqual({ allowPrivate: true, httpHosts: ['a.example', 'b'], maxEndpoints: 2 });
    expect(terminalKey({ BOBINA_TERMINAL_KEY: 'tk_1' })).toBe('tk_1');
  });

  it("lists in each command's help the variables it reads: webhooks its policy's three, terminals (status) the fleet timing", () => {
    expect(variablesOf('webhooks')).toEqual(['BOBINA_WEBHOOKS_ALLOW_PRIVATE', 'BOBINA_WEBHOOKS_HTTP_HOSTS', 'BOBINA_WEBHOOKS_MAX_ENDPOINTS']);
    expect(variablesOf('terminals')).toEqual(['BOBINA_HEARTBEAT', 'BOBINA_OFFLINE_GRACE']);
    expect(variablesOf('agent')).toEqual(['BOBINA_TERMINAL_KEY']);
    expect(variablesOf('serve')).toContain('BOBINA_WEBHOOKS_MAX_ENDPOINTS');
  });

  it('lists every variable it reads in its table', () => {
    const source = readFileSync(join('src', 'server', 'environment.ts'), 'utf8');
    const named = new Set([...source.matchAll(/'((?:BOBINA_|DATABASE_URL|PORT|HOST|LOG_LEVEL)[A-Z_]*)'/g)].map((m) => m[1]));
    expect([...named].filter((n) => !(n! in VARIABLES))).toEqual([]);
  });
});
