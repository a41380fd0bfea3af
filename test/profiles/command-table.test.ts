// One table of profile commands (src/profiles/commands.ts): the schema, capabilities, dialect,
// self-test rows and emit records all come from it, so adding a command is one entry there.
import { describe, expect, it } from 'vitest';
import { COMMAND_KEYS, COMMANDS, compile, disassemble, listProfiles, loadProfile, ProfileSchema } from '../../src/index.js';
import { commandRows } from '../../src/profiles/index.js';

describe('the command table', () => {
  it('is the schema: one property per command, nullable exactly where the table says optional', () => {
    const commands = (ProfileSchema as unknown as { properties: { commands: { properties: Record<string, { anyOf?: unknown[] }> } } }).properties.commands.properties;
    expect(Object.keys(commands)).toEqual(COMMAND_KEYS);
    for (const key of COMMAND_KEYS) expect(commands[key]!.anyOf !== undefined, key).toBe('optional' in COMMANDS[key]);
  });

  it('gives the self-test one row per group of commands, covering every command once', () => {
    expect(commandRows().flatMap(([, keys]) => keys)).toEqual(COMMAND_KEYS);
  });

  it('names every command a profile sends: each one reads back as the meaning the table gives it', () => {
    for (const p of listProfiles().filter((p) => p.output === 'escpos')) {
      for (const key of COMMAND_KEYS) {
        const hex = p.commands?.[key];
        if (!hex) continue;
        const bytes = Uint8Array.from(hex.replace(/\*n/, '').split(' ').filter((w) => w !== 'n').map((w) => parseInt(w, 16)).concat(hex.endsWith(' n') ? [2] : []));
        const effects = disassemble(bytes, { printer: p }).map((i) => i.effect?.type);
        expect(effects.at(-1) === COMMANDS[key].meaning.type || (key === 'feed' && effects.at(-1) === 'lf') || (key === 'init' && effects.at(-1) === 'reset'), `${p.code} ${key} → ${effects}`).toBe(true);
      }
    }
  });

  it('gives every emitted command record its table key, whatever its label says', () => {
    const { records } = compile('<textAlignRight>a<textCondensedOn>b<paperCutPartial><cashDrawerOpen><paperFeed>', { printer: 5, records: true });
    expect(records!.map((r) => r.op)).toEqual(['init', 'codepage', 'alignRight', 'text', 'condensedOn', 'text', 'lineFeed', 'cutPartial', 'drawer', 'feed']);
  });
});

describe('the generic template', () => {
  // Loaded inside each test, so that a mutant of the profile loader is switched on when it runs (bench/MUTATION.md).
  const generic = () => loadProfile('GENERICA');

  it('claims no printer capability it does not have', () => {
    expect([...generic().caps]).toEqual([]);
  });

  it('removes cut, condensed, drawer and text style tags silently, as its data says, and keeps the text', () => {
    expect(generic().missing).toEqual({
      cut: 'removed',
      'cut.partial': 'removed',
      condensed: 'removed',
      drawer: 'removed',
      bold: 'removed',
      underline: 'removed',
      invert: 'removed',
      size: 'removed',
    });
    const { bytes, diagnostics } = compile('a<paperCutFull>b<paperCutPartial>c<textCondensedOn>d<cashDrawerOpen>\n', { printer: generic() });
    expect(diagnostics).toEqual([]);
    expect(Buffer.from(bytes).toString()).toBe('abcd\n');
    const styled = compile('<textBoldOn>a<textUnderlineOn>b<textInvertOn>c<textSize width="8" height="8">d<textSize>\n', { printer: generic() });
    expect(styled.diagnostics).toEqual([]);
    expect(Buffer.from(styled.bytes).toString()).toBe('abcd\n');
  });
});
