// Code page lookup tables, built once per code page from iconv-lite's own mapping:
// UTF-16 code unit → byte (or -1 where the code page lacks the character).
import iconv from 'iconv-lite';

/** Char code → byte, -1 where absent. `null` for UTF-8 output, where every character encodes. */
export type CodepageTable = Int16Array | null;

const tables = new Map<string, CodepageTable>();

/** The lookup table of a single-byte code page (`cp850`, `cp860`, …), or null for `utf8`. */
export function codepageTable(encoding: string): CodepageTable {
  const key = encoding.toLowerCase();
  let table = tables.get(key);
  if (table !== undefined) return table;
  if (key === 'utf8' || key === 'utf-8') table = null;
  else table = buildTable(key);
  tables.set(key, table);
  return table;
}

function buildTable(encoding: string): Int16Array {
  if (!iconv.encodingExists(encoding)) throw new Error(`unknown code page "${encoding}"`);
  const all = Buffer.alloc(256);
  for (let b = 0; b < 256; b++) all[b] = b;
  const decoded = iconv.decode(all, encoding);
  if (decoded.length !== 256) throw new Error(`code page "${encoding}" is not a single-byte code page`);
  const table = new Int16Array(65536).fill(-1);
  for (let b = 0; b < 256; b++) {
    const c = decoded.charCodeAt(b);
    if (c !== 0xfffd && table[c] === -1) table[c] = b;
  }
  return table;
}

/** Display name of a code page for messages ("CP850"). */
export function codepageName(encoding: string): string {
  return encoding.toUpperCase().replace(/^UTF-?8$/, 'UTF-8');
}
