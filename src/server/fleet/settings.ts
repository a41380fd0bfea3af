// The fleet's timing, in one place: how often a terminal's client is expected to say it is there
// (the heartbeat), when silence makes it offline, and when a waiting job counts as stuck.

export interface FleetSettings {
  /** The heartbeat interval clients keep (the agent's --heartbeat, direct delivery's): default 15 s. */
  heartbeatMs: number;
  /** Added to two missed heartbeats before a terminal is offline: default 5 s. */
  offlineGraceMs: number;
  /** A job queued (or leased without progress) this long is stuck, unless its account says otherwise (`bobina users set --stuck-after`): 5 min. */
  stuckAfterMs: number;
  /** How often the offline and stuck-job sweeps look (default: a fifth of the heartbeat, between 50 ms and 1 s). */
  sweepMs?: number;
  /**
   * A terminal's printer.status is announced at most once per this long (by one process): a change
   * sooner is written, and announced, with the terminal's first contact after it. Default 5 s: a
   * sensor or a client that flips on every contact makes one event every 5 s, not one per contact.
   */
  printerEventEveryMs: number;
}

export const DEFAULT_FLEET_SETTINGS: FleetSettings = { heartbeatMs: 15_000, offlineGraceMs: 5_000, stuckAfterMs: 5 * 60_000, printerEventEveryMs: 5_000 };

/** No contact for this long, and a terminal is offline: 2 × the heartbeat + the grace (35 s by default). */
export const offlineAfterMs = (s: Pick<FleetSettings, 'heartbeatMs' | 'offlineGraceMs'>) => 2 * s.heartbeatMs + s.offlineGraceMs;

/** Online: its client was heard from within offlineAfterMs of `now`. */
export const isOnline = (lastSeenAt: Date | null, now: Date, s: FleetSettings) => lastSeenAt !== null && now.getTime() - lastSeenAt.getTime() < offlineAfterMs(s);

export const sweepEveryMs = (s: FleetSettings) => s.sweepMs ?? Math.min(1000, Math.max(50, Math.floor(s.heartbeatMs / 5)));
