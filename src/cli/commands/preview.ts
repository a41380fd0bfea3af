// `bobina preview <file|-> --printer <id|code> [-o receipt.png|receipt.svg] [--bytes]`: compile,
// then render the emitted bytes (through the disassembler) as the printer would print them.
import { writeFileSync } from 'node:fs';
import { compile } from '../../index.js';
import { renderSvg } from '../../inspect/index.js';
import { svgToPng } from '../../inspect/render.js';
import { parse } from '../args.js';
import { EXIT, readInput, UsageError, type Command } from '../io.js';
import { formatDiagnostic } from './compile.js';

const FORMATS: Readonly<Record<string, (svg: string) => string | Uint8Array>> = {
  svg: (svg) => svg,
  png: (svg) => svgToPng(svg),
};

export const previewCommand: Command = {
  name: 'preview',
  usage: 'bobina preview <file|-> --printer <id|code> [-o receipt.png|receipt.svg] [--bytes]',
  summary: 'render what the printer would print, as SVG or PNG (SVG on stdout without -o; --bytes: input is an ESC/POS stream)',
  run(args, io) {
    const { values, positionals } = parse(
      args,
      { printer: { type: 'string', short: 'p' }, output: { type: 'string', short: 'o' }, bytes: { type: 'boolean' } },
      1,
    );
    const file = positionals[0];
    if (!file) throw new UsageError('missing input file (use - for stdin)');
    if (!values.printer) throw new UsageError('missing --printer <id|code>');
    const format = values.output ? (values.output.match(/\.([a-z]+)$/i)?.[1] ?? '').toLowerCase() : 'svg';
    const write = FORMATS[format];
    if (!write) throw new UsageError('-o must end in .png or .svg');

    const input = readInput(file, io);
    let svg;
    let failed = false;
    if (values.bytes) {
      svg = renderSvg(new Uint8Array(input), { printer: values.printer });
    } else {
      const result = compile(input.toString('utf8'), { printer: values.printer });
      const name = file === '-' ? '<stdin>' : file;
      for (const d of result.diagnostics) io.stderr.write(formatDiagnostic(name, d) + '\n');
      failed = result.diagnostics.some((d) => d.severity === 'error');
      svg = renderSvg(result.bytes, { printer: values.printer });
    }
    const body = write(svg);
    if (values.output) writeFileSync(values.output, body);
    else io.stdout.write(body);
    return failed ? EXIT.failed : EXIT.ok;
  },
};
