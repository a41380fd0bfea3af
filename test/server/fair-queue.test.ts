// The compile pool's fair queue on its own: a free slot goes to the waiting owner with the fewest
// tasks running, owners are otherwise served in turn, each owner's tasks in the order they came.
import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/server/fair-queue.js';

/** A task that starts when the queue says so and ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('FairQueue', () => {
  it("serves a second owner's one task before the first owner's backlog, in turn", async () => {
    const q = new FairQueue(2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const add = (owner: string, name: string) => {
      const g = gate();
      gates.set(name, g);
      return q.run(owner, async () => {
        started.push(name);
        await g.opened;
        return name;
      });
    };
    const flood = Array.from({ length: 10 }, (_, i) => add('a', `a${i}`));
    const small = add('b', 'b0');
    await Promise.resolve();
    expect(started).toEqual(['a0', 'a1']);
    expect(q.size).toBe(9);
    // The first free slot goes to b, which has nothing running, though a came first.
    gates.get('a0')!.open();
    await flood[0];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a0', 'a1', 'b0']);
    gates.get('b0')!.open();
    expect(await small).toBe('b0');
    for (let i = 1; i < 10; i++) gates.get(`a${i}`)!.open();
    expect(await Promise.all(flood)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
  });

  it('takes owners in turn when none has a task running', async () => {
    const q = new FairQueue(1);
    const started: string[] = [];
    const all = ['a', 'a', 'a', 'b', 'b', 'c'].map((owner, i) => q.run(owner, async () => void started.push(`${owner}${i}`)));
    await Promise.all(all);
    // a0 takes the free slot at once; a was first in line when b and c came, so a1 goes next.
    expect(started).toEqual(['a0', 'a1', 'b3', 'c5', 'a2', 'b4']);
  });

  it('shares the slots evenly between two owners with backlogs, whoever came first', async () => {
    const q = new FairQueue(2);
    const started: string[] = [];
    const add = (owner: string) => q.run(owner, async () => {
      started.push(owner);
      await new Promise((r) => setImmediate(r));
    });
    await Promise.all([...Array.from({ length: 8 }, () => add('a')), ...Array.from({ length: 8 }, () => add('b'))]);
    // a took both slots before b came; from then on each free slot goes to the owner with none running.
    expect(started.join('')).toBe('aabababababababb');
  });

  it('frees the slot of a task that fails, and hands its error to the caller', async () => {
    const q = new FairQueue(1);
    await expect(q.run('a', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(q.run('a', () => { throw new Error('sync boom'); })).rejects.toThrow('sync boom');
    expect(await q.run('a', async () => 7)).toBe(7);
  });

  it('rejects the tasks still waiting when closed, and every later one', async () => {
    const q = new FairQueue(1);
    const g = gate();
    const running = q.run('a', () => g.opened);
    const waiting = q.run('b', async () => 'never');
    q.close(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    await expect(q.run('c', async () => 1)).rejects.toThrow('closed');
    g.open();
    await running;
  });
});
