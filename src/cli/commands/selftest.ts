// `bobina selftest --printer <id|code> [-o out.bin] [--preview page.png|page.svg]`: the page a
// user prints once to check a real printer against its profile. Without -o, its listing (with
// the spans of the page's own conteudo, as `bobina compile` lists a receipt).
import { writeFileSync } from 'node:fs';
import { renderSvg, selfTest } from '../../inspect/index.js';
import { formatListing } from '../../inspect/listing.js';
import { svgToPng } from '../../inspect/render.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';

export const selftestCommand: Command = {
  name: 'selftest',
  usage: 'bobina selftest --printer <id|code> [-o out.bin] [--preview page.png|page.svg]',
  summary: 'build the self-test page for a printer: bytes to -o, a picture to --preview, else its listing on stdout',
  run(args, io) {
    const { values } = parse(
      args,
      { printer: { type: 'string', short: 'p' }, output: { type: 'string', short: 'o' }, preview: { type: 'string' } },
      0,
    );
    if (!values.printer) throw new UsageError('missing --printer <id|code>');
    const preview = values.preview;
    if (preview && !/\.(png|svg)$/i.test(preview)) throw new UsageError('--preview must end in .png or .svg');
    const page = selfTest(values.printer);
    if (values.output) writeFileSync(values.output, page.bytes);
    if (preview) {
      const svg = renderSvg(page.bytes, { printer: values.printer });
      writeFileSync(preview, /\.png$/i.test(preview) ? svgToPng(svg) : svg);
    }
    if (!values.output && !preview) io.stdout.write(formatListing(page.bytes, page.records, page.conteudo, { printer: values.printer }));
    return EXIT.ok;
  },
};
