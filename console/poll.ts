// Keeps the open view current: runs `task` every few seconds while the tab is visible, never two
// at once, and not at all while it is hidden (a background tab costs the service nothing); when
// the tab comes back, at once. Polling, not server-sent events: EventSource cannot send an
// Authorization header, so the token would have to travel in the URL or a cookie, which the
// console never does; and every view is a plain API list the service already answers.
export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  /** Asked for while a run was going on (the view changed meanwhile): run again as soon as it ends. */
  private again = false;
  private stopped = true;
  /** The last run said there is nothing to update (idle()): no next run until now() is called again. */
  private idled = false;

  constructor(private readonly everyMs: number, private readonly task: () => Promise<void>) {
    document.addEventListener('visibilitychange', () => {
      if (this.stopped) return;
      if (document.hidden) this.clear();
      else void this.now();
    });
  }

  /** Polls from now on (the first run is the caller's now()). */
  start(): void {
    this.stopped = false;
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  /** Called by the task: schedule no next run (what it shows cannot change); the next now() polls again. */
  idle(): void {
    this.idled = true;
    this.clear();
  }

  /** Runs the task now (a view just opened, an action just done) and schedules the next run. */
  async now(): Promise<void> {
    this.clear();
    this.idled = false;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      await this.task();
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        void this.now();
      } else if (!this.stopped && !document.hidden && !this.idled) {
        this.timer = setTimeout(() => void this.now(), this.everyMs);
      }
    }
  }

  private clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
