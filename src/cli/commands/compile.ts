// `bobina compile <file|-> --printer <id|code> [-o out] [--format bin|hex|json] [--strict]`
import { writeFileSync } from 'node:fs';
import { compile, formatListing, type Diagnostic } from '../../index.js';
import { parse } from '../args.js';
import { EXIT, readInput, UsageError, type Command } from '../io.js';

const FORMATS = ['bin', 'hex', 'json'] as const;

export const compileCommand: Command = {
  name: 'compile',
  usage: 'bobina compile <file|-> --printer <id|code> [-o out.bin] [--format bin|hex|json] [--strict]',
  summary: 'compile conteudo to printer bytes; diagnostics on stderr',
  run(args, io) {
    const { values, positionals } = parse(
      args,
      {
        printer: { type: 'string', short: 'p' },
        output: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        strict: { type: 'boolean' },
      },
      1,
    );
    const file = positionals[0];
    if (!file) throw new UsageError('missing input file (use - for stdin)');
    if (!values.printer) throw new UsageError('missing --printer <id|code>');
    if (values.output === '') throw new UsageError('-o needs a file name (it was empty)');
    const format = (values.format ?? (values.output ? 'bin' : 'hex')) as (typeof FORMATS)[number];
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);

    const source = readInput(file, io).toString('utf8');
    const result = compile(source, { printer: values.printer, records: format === 'hex' });
    const name = file === '-' ? '<stdin>' : file;
    for (const d of result.diagnostics) io.stderr.write(formatDiagnostic(name, d) + '\n');

    const body: string | Uint8Array =
      format === 'bin'
        ? result.bytes
        : format === 'hex'
          ? formatListing(result.bytes, result.records!, source, { printer: values.printer })
          : JSON.stringify({ bytes: Buffer.from(result.bytes).toString('base64'), diagnostics: result.diagnostics }, null, 2) + '\n';
    if (values.output) writeFileSync(values.output, body);
    else io.stdout.write(body);

    const errors = result.diagnostics.some((d) => d.severity === 'error');
    if (errors || (values.strict && result.diagnostics.length > 0)) return EXIT.failed;
    return EXIT.ok;
  },
};

/** `file:line:col: severity code: message`, as compilers print them. */
export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.span.start.line}:${d.span.start.column}: ${d.severity} ${d.code}: ${d.message}`;
}
