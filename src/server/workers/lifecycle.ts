// Ties background workers to the app's lifecycle: started in order once fastify is ready (onReady),
// stopped in reverse order as soon as it starts closing (preClose). Fastify runs onClose hooks last
// registered first, so stopping in onClose could come after a later hook had closed the store;
// preClose always runs before every onClose hook.
import type { FastifyInstance } from 'fastify';
import type { BackgroundWorker } from './worker.js';

export function runWorkers(app: FastifyInstance, workers: readonly BackgroundWorker[]): void {
  const started: BackgroundWorker[] = [];
  app.addHook('onReady', async () => {
    for (const worker of workers) {
      await worker.start(app.log.child({ worker: worker.name }));
      started.push(worker);
    }
  });
  app.addHook('preClose', async () => {
    for (const worker of started.splice(0).reverse()) await worker.stop();
  });
}
