// Where the service's work meets its metrics: job state changes counted once their transaction has
// committed (a change rolled back is never counted), compiles timed, Inserts timed from request to
// answer. buildApp applies these only when it is given metrics: without, nothing here runs.
import type { FastifyInstance } from 'fastify';
import type { Compiler } from '../compiler.js';
import type { JobEvent, JobEventSink } from '../jobs/events.js';
import type { Repositories, Store } from '../store/repositories.js';
import type { ServiceMetrics } from './metrics.js';

export const INSERT_PATH = '/IntencaoImpressao/Insert';

/**
 * The store the job use cases run on, and their event sink, such that each change the sink hears of
 * inside `transaction(fn)` is counted after that transaction commits (and never if it rolls back); a
 * change made outside one is its own statement, counted at once.
 */
export function countCommitted(store: Store, sink: JobEventSink, metrics: ServiceMetrics): { store: Store; sink: JobEventSink } {
  const open = new WeakMap<Repositories, JobEvent[]>();
  const count = (e: JobEvent) => metrics.transitioned({ from: e.from, event: e.evento, to: e.estado, createdAt: e.createdAt, at: e.at });
  const counted: Store = Object.assign(Object.create(store) as Store, {
    async transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
      const heard: JobEvent[] = [];
      const result = await store.transaction((tx) => {
        open.set(tx, heard);
        return fn(tx);
      });
      heard.forEach(count);
      return result;
    },
  });
  return {
    store: counted,
    sink: async (tx, event) => {
      await sink(tx, event);
      const heard = open.get(tx);
      if (heard) heard.push(event);
      else count(event);
    },
  };
}

/** The compiler, each run timed (waiting for a pool thread included). */
export function timedCompiler(compiler: Compiler, metrics: ServiceMetrics): Compiler {
  return Object.assign(Object.create(compiler) as Compiler, {
    async run(...args: Parameters<Compiler['run']>) {
      const started = performance.now();
      let ok = false;
      try {
        const result = await compiler.run(...args);
        ok = true;
        return result;
      } finally {
        metrics.compiled((performance.now() - started) / 1000, ok);
      }
    },
  });
}

/** Every Insert's answer timed, from its request's arrival (fastify's elapsedTime). */
export function timeInserts(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.url === INSERT_PATH && request.method === 'POST') metrics.insertAnswered(reply.elapsedTime / 1000, reply.statusCode);
  });
}
