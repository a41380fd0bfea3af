// examples/network-printer/print.mjs, run as its README says, against the virtual printer on
// 127.0.0.1 (port 0): the job the printer gets is the compiled receipt, byte for byte.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { startVirtualPrinter, type VirtualPrinter } from '../../src/delivery/index.js';
import { ROOT } from '../support/cli.js';
import { hex } from '../support/hex.js';
import { runExample } from './run.js';

const SCRIPT = 'examples/network-printer/print.mjs';
const NFCE = 'fixtures/nfce.txt';

let printer: VirtualPrinter | undefined;
afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

describe('examples/network-printer', { timeout: 60_000 }, () => {
  it('prints a fixture on the virtual printer: the job is the compiled bytes, confirmed by the printer', async () => {
    printer = await startVirtualPrinter({ printer: 'MAKER5T20' });
    const r = await runExample(SCRIPT, [printer.address, 'MAKER5T20', NFCE]);
    const expected = compile(readFileSync(join(ROOT, NFCE), 'utf8'), { printer: 'MAKER5T20' }).bytes;
    expect(r.stdout, r.stderr).toBe(`printed ${expected.length} bytes (printer)\n`);
    expect(r.code).toBe(0);
    expect(printer.jobs).toHaveLength(1);
    expect(hex(printer.jobs[0]!.bytes)).toBe(hex(expected));
  });

  it('sends nothing to a printer that is out of paper, and says why', async () => {
    printer = await startVirtualPrinter({ printer: 'MAKER5T20' });
    await printer.setState({ paper: 'out' });
    const r = await runExample(SCRIPT, [printer.address, 'MAKER5T20', NFCE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not printed: the printer needs attention (media-empty)');
    expect(printer.jobs).toHaveLength(0);
    expect(printer.held).toBe(0);
  });

  it('sends nothing when no printer listens (its status says offline), and refuses a receipt with errors', async () => {
    printer = await startVirtualPrinter({ printer: 'MAKER5T20' });
    const address = printer.address;
    await printer.close();
    printer = undefined;
    const refused = await runExample(SCRIPT, [address, 'MAKER5T20', NFCE]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not printed: the printer needs attention (offline)');

    // No printer is asked: the receipt is refused before.
    const broken = await runExample(SCRIPT, [address, 'MAKER5T20', 'test/examples/fixtures/unclosed-qrcode.txt']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('error parse/unclosed-qrcode');
    expect(broken.stderr).toContain('not printed: the receipt has errors');
  });
});
