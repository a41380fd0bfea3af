// `bobina virtual-printer --printer <id|code> [--port 9100] [--out DIR] [--control-port M]`: a printer
// simulator on 127.0.0.1 until SIGINT/SIGTERM or "quit". Its state is changed by commands on stdin
// (one per line: "paper out", "cover open", "offline refuse", "slow 2000", "state", "help") and,
// with --control-port, over HTTP. Events go to stderr, one line each; answers to stdin to stdout.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';
import { untilSignal } from '../signals.js';

function portOption(name: string, value: string | undefined, fallback: number | undefined): number | undefined {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`invalid ${name} "${value}"`);
  return port;
}

export const virtualPrinterCommand: Command = {
  name: 'virtual-printer',
  usage: 'bobina virtual-printer --printer <id|code> [--port 9100] [--out DIR] [--control-port M]',
  summary: 'a raw-socket printer simulator on 127.0.0.1: answers status in the printer\'s dialect, saves each job and its preview (commands on stdin: "help")',
  async run(args, io) {
    const { values } = parse(
      args,
      { port: { type: 'string' }, printer: { type: 'string', short: 'p' }, out: { type: 'string', short: 'o' }, 'control-port': { type: 'string' } },
      0,
    );
    if (!values.printer) throw new UsageError('missing --printer <id|code>');
    if (values.out === '') throw new UsageError('--out needs a directory (it was empty)');
    const port = portOption('--port', values.port, 9100)!;
    const controlPort = portOption('--control-port', values['control-port'], undefined);
    const { startVirtualPrinter } = await import('../../delivery/virtual/printer.js');
    const say = (line: string) => io.stderr.write(`bobina virtual-printer: ${line}\n`);
    let printer;
    try {
      printer = await startVirtualPrinter({
        printer: values.printer,
        port,
        ...(values.out ? { out: values.out } : {}),
        ...(controlPort !== undefined ? { controlPort } : {}),
        onEvent: say,
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const on = (err as { port?: number }).port ?? port;
      if (code === 'EADDRINUSE' || code === 'EACCES') throw new UsageError(`cannot listen on 127.0.0.1:${on}: ${code}`);
      throw err;
    }
    let partial = '';
    let chain = Promise.resolve();
    let quit: () => void = () => undefined;
    const quitting = new Promise<void>((resolve) => (quit = resolve));
    const onData = (chunk: Buffer) => {
      partial += chunk.toString('utf8');
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        // One command at a time, in order: "offline refuse" finishes before the next line runs.
        chain = chain.then(async () => {
          const answer = await printer.command(line);
          (answer.ok ? io.stdout : io.stderr).write(`${answer.text}\n`);
          if (answer.quit) quit();
        });
      }
    };
    const stopped = untilSignal(async () => {
      process.stdin.off('data', onData);
      process.stdin.destroy();
      await printer.close();
    }, quitting);
    // End of stdin (a service manager, or `< /dev/null`) is not a reason to stop printing.
    process.stdin.on('data', onData);
    // Announced only now, so whoever waits for "listening" can already stop it with a signal.
    say(`${printer.profile.code} (${printer.profile.printer}) listening on ${printer.address}${values.out ? `, saving jobs in ${values.out}` : ''}`);
    if (printer.controlUrl) say(`control on ${printer.controlUrl}`);
    say('type "help" for commands');
    await stopped;
    return EXIT.ok;
  },
};
