// Builds the fastify app (fastify/demo shape): external plugins (swagger), then error handling,
// then one plugin per resource. Tests call buildApp() and inject(); `bobina serve` listens.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { randomUUID } from 'node:crypto';
import { authenticate } from './auth/authenticate.js';
import { installErrorHandlers } from './errors.js';
import { loggerOptions } from './logger.js';
import { intentionRoutes } from './routes/intentions.js';
import { loginRoutes } from './routes/login.js';
import { templateRoutes } from './routes/templates.js';
import type { Store } from './store/types.js';

export interface AppOptions {
  store: Store;
  logLevel?: string;
  /** Where logs go (default stdout); tests capture them to check nothing secret is written. */
  logStream?: NodeJS.WritableStream;
  accessTtl?: number;
  refreshTtl?: number;
  maxLoginFailures?: number;
  loginFailureWindowMs?: number;
}

export const BODY_LIMIT = 2 * 1024 * 1024;

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(o.logLevel ?? 'info', o.logStream),
    bodyLimit: BODY_LIMIT,
    // JSON bodies are taken as typed: with coercion a null impressoraId would become 0 (a real
    // template) and a null referencia "".
    ajv: { customOptions: { coerceTypes: false } },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandlers(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'bobina partner printing service', version: '0.1.0' },
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'key' }, bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  await app.register(loginRoutes, {
    store: o.store,
    accessTtl: o.accessTtl ?? 3600,
    refreshTtl: o.refreshTtl ?? 30 * 24 * 3600,
    maxFailures: o.maxLoginFailures ?? 10,
    failureWindowMs: o.loginFailureWindowMs ?? 15 * 60 * 1000,
  });
  await app.register(async (printing) => {
    printing.addHook('onRequest', authenticate(o.store));
    await printing.register(templateRoutes);
    await printing.register(intentionRoutes, { store: o.store });
  });
  return app;
}
