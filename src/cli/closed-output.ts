// A closed output: `bobina terminals status | head -3` closes the pipe once head has its lines, and
// the command's next write fails with EPIPE. Node ignores SIGPIPE, so instead of dying of it as
// cat or git do, the process gets an 'error' event on process.stdout (or stderr), which, unhandled,
// ended every command with a stack trace. Here the command ends quietly instead: a one-shot command
// at once, as SIGPIPE would end it; a long-running one (agent, virtual-printer) in order, as on
// SIGTERM, since whoever read its output (the jobs' bytes of `agent --device -`) has gone.
// `bobina serve` logs through its logger, which stops writing on EPIPE by itself, and keeps serving
// (untilSignal's outlastsOutput): a closed stderr, its "listening on" line's, does not end it either.
import { EXIT } from './io.js';
import { outlastsOutput, stopAsOnSignal } from './signals.js';

let closed = false;

/** True once stdout or stderr was found closed: the command then exits EXIT.closedOutput. */
export const outputClosed = (): boolean => closed;

/** Installed once, where the CLI starts, before anything is written. */
export function endOnClosedOutput(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  const onError = (err: NodeJS.ErrnoException) => {
    // Once closed, the stream is destroyed: later writes fail quietly, nothing more to decide.
    if (closed) return;
    // Any other failure of the terminal or file behind stdout stays what it was: a crash that says why.
    if (err.code !== 'EPIPE') throw err;
    // serve: its logs are dropped, it serves on, and ends as it would have (0 on SIGTERM).
    if (outlastsOutput()) return;
    closed = true;
    if (!stopAsOnSignal()) process.exit(EXIT.closedOutput);
  };
  for (const stream of streams) stream.on('error', onError);
}
