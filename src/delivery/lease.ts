// A job's lease kept alive while its client delivers it: a renewal every third of the lease, from
// the offer until the final report, so a slow printer (or a confirmation that takes long) never
// lets the lease run out under a client that is still working on the job. A renewal that fails is
// tried again at the next tick; two in a row may fail before the lease is at risk.

/** How often a lease of `leaseMs` is renewed. */
export const renewEvery = (leaseMs: number): number => Math.max(50, Math.floor(leaseMs / 3));

export interface LeaseKeeper {
  /** Stops renewing (the final report was sent, or the job was given up). */
  stop(): void;
}

/**
 * Calls `renew` every `renewEvery(leaseMs)` until stopped. `renew` answers whether the service still
 * counts the client as the job's holder; once it says no (the lease ran out meanwhile, and the job
 * went back to the queue), renewing stops and `onLost` is called once.
 */
export function keepLease(
  renew: () => Promise<{ aceito: boolean }>,
  leaseMs: number,
  events: { onLost: () => void; onError: (err: Error) => void },
): LeaseKeeper {
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(() => {
    // One renewal at a time: a slow answer is not stacked on.
    if (stopped || inFlight) return;
    inFlight = true;
    renew().then(
      ({ aceito }) => {
        inFlight = false;
        if (aceito || stopped) return;
        stop();
        events.onLost();
      },
      (err: Error) => {
        inFlight = false;
        if (!stopped) events.onError(err);
      },
    );
  }, renewEvery(leaseMs));
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return { stop };
}
