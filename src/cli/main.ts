#!/usr/bin/env node
// The `bobina` command: a table of subcommands, one file each under commands/.
// Usage errors exit 2 with one line; unexpected failures exit 1 with one line, never a stack; a
// closed stdout or stderr (`| head`) exits 141 without a word (closed-output.ts).
import { compileCommand } from './commands/compile.js';
import { printersCommand } from './commands/printers.js';
import { disasmCommand } from './commands/disasm.js';
import { previewCommand } from './commands/preview.js';
import { selftestCommand } from './commands/selftest.js';
import { serveCommand } from './commands/serve.js';
import { usersCommand } from './commands/users.js';
import { terminalsCommand } from './commands/terminals.js';
import { jobsCommand } from './commands/jobs.js';
import { keysCommand } from './commands/keys.js';
import { webhooksCommand } from './commands/webhooks.js';
import { virtualPrinterCommand } from './commands/virtual-printer.js';
import { agentCommand } from './commands/agent.js';
import { ProfileError } from '../profiles/index.js';
import { EXIT, processIo, UsageError, type Command, type Io } from './io.js';
import { missingPackageMessage } from './missing-package.js';
import { endOnClosedOutput, outputClosed } from './closed-output.js';

/** Injected by tsup from package.json (see tsup.config.ts). */
declare const BOBINA_VERSION: string;

const COMMANDS: readonly Command[] = [compileCommand, printersCommand, disasmCommand, previewCommand, selftestCommand, serveCommand, usersCommand, terminalsCommand, jobsCommand, keysCommand, webhooksCommand, virtualPrinterCommand, agentCommand];

function help(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `bobina — ESC/POS content compiler and partner printing service\n\nUsage:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`bobina ${BOBINA_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`bobina: unknown command "${name}"\n\n${help()}`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`usage: ${command.usage}\n  ${command.summary}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (err) {
    // An unknown or invalid --printer is the user's mistake, whichever command hits it.
    if (err instanceof UsageError || err instanceof ProfileError) {
      io.stderr.write(`bobina ${command.name}: ${err.message}\nusage: ${command.usage}\n`);
      return EXIT.usage;
    }
    // An optional package the command needs (the service's, resvg for PNG) is not installed.
    const missing = missingPackageMessage(err);
    if (missing) {
      io.stderr.write(`bobina ${command.name}: ${missing}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`bobina ${command.name}: ${(err as Error).message ?? String(err)}\n`);
    return EXIT.failed;
  }
}

endOnClosedOutput();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = outputClosed() ? EXIT.closedOutput : code;
  },
  (err: unknown) => {
    process.stderr.write(`bobina: ${(err as Error).message ?? String(err)}\n`);
    process.exitCode = outputClosed() ? EXIT.closedOutput : EXIT.failed;
  },
);
