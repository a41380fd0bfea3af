// A fair queue in front of a few slots of work (the compile pool's threads): each owner (an
// account) has a FIFO of its own, and a free slot goes to the waiting owner with the fewest tasks
// running, the one waiting longest among equals; once served, an owner goes to the back of the
// line. An owner with a hundred tasks waiting delays another owner's single task by at most the
// tasks already running: the next free slot is the other owner's.

interface Waiting {
  start(): void;
  reject(reason: Error): void;
}

export class FairQueue {
  /** Owners with tasks waiting, in the order they are served among equals (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Tasks running per owner (owners with none are left out). */
  private readonly running = new Map<string, number>();
  private busy = 0;
  private closed: Error | undefined;

  constructor(private readonly slots: number) {}

  /** Tasks waiting for a slot, all owners together. */
  get size(): number {
    let n = 0;
    for (const tasks of this.waiting.values()) n += tasks.length;
    return n;
  }

  /** Tasks holding a slot now. */
  get started(): number {
    return this.busy;
  }

  /** Runs `task` once a slot is free and it is `owner`'s turn; the slot is held until its promise settles. */
  run<T>(owner: string, task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.busy++;
        this.running.set(owner, (this.running.get(owner) ?? 0) + 1);
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.busy--;
            const left = this.running.get(owner)! - 1;
            if (left === 0) this.running.delete(owner);
            else this.running.set(owner, left);
            this.dispatch();
          });
      };
      const tasks = this.waiting.get(owner);
      if (tasks) tasks.push({ start, reject });
      else this.waiting.set(owner, [{ start, reject }]);
      this.dispatch();
    });
  }

  /** Refuses new tasks, and rejects with `reason` those still waiting for a slot. */
  close(reason: Error): void {
    this.closed = reason;
    const left = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const w of left) w.reject(reason);
  }

  private dispatch(): void {
    while (this.busy < this.slots && this.waiting.size > 0) {
      const owner = this.next();
      const tasks = this.waiting.get(owner)!;
      const task = tasks.shift()!;
      // Served: to the back of the line, or out of it with its last task.
      this.waiting.delete(owner);
      if (tasks.length > 0) this.waiting.set(owner, tasks);
      task.start();
    }
  }

  /** The waiting owner with the fewest tasks running; the first in line among equals. */
  private next(): string {
    let best: string | undefined;
    let fewest = Infinity;
    for (const owner of this.waiting.keys()) {
      const n = this.running.get(owner) ?? 0;
      if (n < fewest) {
        best = owner;
        fewest = n;
        if (n === 0) break;
      }
    }
    return best!;
  }
}
