// A child process for the crash test: one deliver() with a journal, as `bobina agent` will run it.
// argv: <built delivery.js> <state dir> <device> <printer> <job id> <token> <bytes file> [reprint]
import { readFileSync } from 'node:fs';
const [dist, dir, device, printer, id, token, file, reprint] = process.argv.slice(2);
const { Journal, deliver, openPrinter } = await import(dist);
const journal = Journal.open(dir);
const result = await deliver(openPrinter(device, printer), { id, token, bytes: readFileSync(file) }, { journal, reprint: reprint === 'reprint' });
journal.close();
const { error: _error, ...shown } = result;
console.log(JSON.stringify(shown));
