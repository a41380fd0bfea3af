// Commands made of subcommands (`bobina keys create …`): the first argument picks one from a table.
import { UsageError, type Io } from './io.js';

export type Subcommand = (args: string[], io: Io) => Promise<number>;

/** A command's `run` that hands the rest of the arguments to the subcommand the first one names. */
export function dispatch(subcommands: Readonly<Record<string, Subcommand>>): (args: string[], io: Io) => Promise<number> {
  return (args, io) => {
    const sub = Object.hasOwn(subcommands, args[0] ?? '') ? subcommands[args[0]!] : undefined;
    if (!sub) throw new UsageError(args[0] ? `unknown subcommand "${args[0]}"` : `missing subcommand (${Object.keys(subcommands).join(', ')})`);
    return sub(args.slice(1), io);
  };
}
