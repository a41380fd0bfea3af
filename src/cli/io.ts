// What a CLI command may touch: its arguments, stdin/stdout/stderr, and exit codes. Commands
// return an exit code rather than calling process.exit, so tests can run them in-process.
import { readFileSync } from 'node:fs';

/**
 * closedOutput: stdout or stderr was closed by its reader (closed-output.ts). 141 is 128 + SIGPIPE,
 * what a shell reports for cat, git or seq ended by SIGPIPE in the same place (Node cannot die of
 * SIGPIPE: it ignores it), so `set -o pipefail` scripts see bobina as they see those. Not 0: the
 * output was not all read; not 1: nothing failed.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, closedOutput: 141 } as const;

/** A usage error: printed as one line with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readStdin: () => Buffer;
  /** The terminal, for prompts that must not echo (absent in tests that do not prompt). */
  stdin?: Pick<NodeJS.ReadStream, 'isTTY' | 'setRawMode' | 'on' | 'off' | 'resume' | 'pause'>;
}

export const processIo: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: () => readFileSync(0),
  stdin: process.stdin,
};

export interface Command {
  name: string;
  usage: string;
  summary: string;
  run(args: string[], io: Io): Promise<number> | number;
}

/** Reads a file argument, or stdin for "-". */
export function readInput(path: string, io: Io): Buffer {
  try {
    return path === '-' ? io.readStdin() : readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${path === '-' ? 'standard input' : path}: ${code === 'ENOENT' ? 'no such file' : code ?? String(err)}`);
  }
}
