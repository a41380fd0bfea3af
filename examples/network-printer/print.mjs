// Compile a receipt and print it on a network printer (raw TCP, port 9100), the way a point-of-sale
// program would: compile, refuse a job with errors, ask the printer's status, write the bytes, and
// say how it went.
//
//   node examples/network-printer/print.mjs <tcp://host:port> <printer id or code> <receipt.txt>
//   node examples/network-printer/print.mjs tcp://127.0.0.1:9100 MAKER5T20 fixtures/nfce.txt
//
// In this repository `bobina` resolves to the package itself (run `npm ci` first, which builds
// dist/); in your project, `npm install bobina`.
import { readFileSync } from 'node:fs';
import { compile, hasErrors } from 'bobina';
import { openPrinter, PrinterError } from 'bobina/delivery';

const [device, printer, file] = process.argv.slice(2);
if (!device || !printer || !file) {
  console.error('usage: node print.mjs <tcp://host:port> <printer id or code> <receipt.txt>');
  process.exit(2);
}

const conteudo = readFileSync(file, 'utf8');
const { bytes, diagnostics } = compile(conteudo, { printer });
for (const d of diagnostics) console.error(`${file}:${d.span.start.line}:${d.span.start.column}: ${d.severity} ${d.code}: ${d.message}`);
if (hasErrors(diagnostics)) {
  console.error('not printed: the receipt has errors');
  process.exit(1);
}

const session = openPrinter(device, printer);
try {
  const status = await session.status();
  if (status.available && !status.ready) {
    console.error(`not printed: the printer needs attention (${status.reasons.join(', ')})`);
    process.exitCode = 1;
  } else {
    const outcome = await session.print(bytes);
    // confirmacao "printer": the printer said it printed the job; "sent": every byte was written.
    console.log(`printed ${outcome.written} bytes (${outcome.confirmacao})`);
  }
} catch (error) {
  if (!(error instanceof PrinterError)) throw error;
  // error.started: false means no byte reached the printer, so trying again is safe.
  console.error(`not printed: ${error.message} (${error.code}, ${error.started ? 'maybe partly printed' : 'nothing sent'})`);
  process.exitCode = 1;
} finally {
  await session.close();
}
