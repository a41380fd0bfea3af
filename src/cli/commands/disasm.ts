// `bobina disasm <file.bin|-> [--printer <id|code>]`: any ESC/POS stream as a readable listing.
import { disassemble, formatDisassembly } from '../../inspect/index.js';
import { parse } from '../args.js';
import { EXIT, readInput, UsageError, type Command } from '../io.js';

export const disasmCommand: Command = {
  name: 'disasm',
  usage: 'bobina disasm <file.bin|-> [--printer <id|code>]',
  summary: 'list an ESC/POS byte stream one command per line (dialect and code page from --printer, default 5)',
  run(args, io) {
    const { values, positionals } = parse(args, { printer: { type: 'string', short: 'p' } }, 1);
    const file = positionals[0];
    if (!file) throw new UsageError('missing input file (use - for stdin)');
    const bytes = new Uint8Array(readInput(file, io));
    const listing = formatDisassembly(bytes, disassemble(bytes, { printer: values.printer ?? 5 }));
    io.stdout.write(listing);
    return EXIT.ok;
  },
};
