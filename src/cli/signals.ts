// How a long-running command ends: on SIGINT or SIGTERM (or when its work ends by itself, or when
// its output is closed: closed-output.ts), it stops, and the command returns once stopping has finished.

/** The stops of the untilSignal calls still waiting, so a closed output can end them as a signal would. */
const waiting = new Set<() => void>();
/** Commands waiting that go on when their output is closed (serve: its logs are not its work). */
let outlasting = 0;

/**
 * Resolves once `stop()` has settled, called at the first SIGINT or SIGTERM, at stopAsOnSignal()
 * (unless `outlastsOutput`: a closed output does not end it), or as soon as `ended` settles (a
 * loop that stopped by itself); the signal handlers are removed first.
 */
export function untilSignal(stop: () => Promise<unknown>, ended?: Promise<unknown>, { outlastsOutput = false } = {}): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      if (outlastsOutput && !stopping) outlasting--;
      waiting.delete(done);
      if (stopping) return;
      stopping = true;
      stop().then(() => resolve(), () => resolve());
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (outlastsOutput) outlasting++;
    else waiting.add(done);
    ended?.then(done, done);
  });
}

/** Stops, in order, every command waiting in untilSignal as SIGTERM would; false if none was waiting. */
export function stopAsOnSignal(): boolean {
  if (waiting.size === 0) return false;
  for (const done of [...waiting]) done();
  return true;
}

/** True while the command waiting goes on whatever becomes of its output (serve). */
export const outlastsOutput = (): boolean => outlasting > 0 && waiting.size === 0;
