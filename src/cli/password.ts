// Where an operator's password comes from, best first: a prompt on the terminal (not echoed),
// `--password-stdin` (one line; for scripts and secret managers), or `--password` on the command
// line, which is kept working but lands in shell history and in `ps`.
import { UsageError, type Io } from './io.js';

export const PASSWORD_OPTIONS = {
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
} as const;

export interface PasswordFlags {
  password?: string | undefined;
  'password-stdin'?: boolean | undefined;
}

/** The password from the flags, stdin or a prompt; a usage error when there is none or it is empty. */
export async function readPassword(flags: PasswordFlags, io: Io, confirm: boolean): Promise<string> {
  if (flags.password !== undefined && flags['password-stdin']) throw new UsageError('give the password with --password or --password-stdin, not both');
  let password: string;
  if (flags.password !== undefined) password = flags.password;
  else if (flags['password-stdin']) password = io.readStdin().toString('utf8').replace(/\r?\n$/, '');
  else if (io.stdin?.isTTY) {
    password = await prompt(io, 'Password: ');
    if (confirm && (await prompt(io, 'Repeat password: ')) !== password) throw new UsageError('the passwords do not match');
  } else throw new UsageError('no password: use --password-stdin (or --password), or run in a terminal to be asked for it');
  if (password === '') throw new UsageError('the password is empty');
  return password;
}

/** Asks on stderr and reads one line from the terminal in raw mode, so the typed characters are never echoed. */
export function prompt(io: Io, question: string): Promise<string> {
  const input = io.stdin!;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      io.stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || (ch === '\u0004' && typed === '')) return done(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}
