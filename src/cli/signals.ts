// How a long-running command ends: on SIGINT or SIGTERM (or when its work ends by itself), it
// stops, and the command returns once stopping has finished.

/**
 * Resolves once `stop()` has settled, called at the first SIGINT or SIGTERM, or as soon as `ended`
 * settles (a loop that stopped by itself); the signal handlers are removed first.
 */
export function untilSignal(stop: () => Promise<unknown>, ended?: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      if (stopping) return;
      stopping = true;
      stop().then(() => resolve(), () => resolve());
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    ended?.then(done, done);
  });
}
