// `bobina serve`: runs the partner printing service until SIGINT/SIGTERM. The server (fastify,
// SQLite) is imported only here, at run time, so other commands start without loading it.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';

export interface ServeSettings {
  port: number;
  host: string;
  db?: string;
  trustProxy?: boolean | number | string;
}

const OPTIONS = { port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' }, 'trust-proxy': { type: 'string' } } as const;

/** `true`/`false`, a hop count, or comma-separated proxy addresses and CIDRs (fastify's trustProxy). */
function trustProxy(value: string): boolean | number | string {
  const v = value.trim();
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  if (v === '') throw new UsageError('--trust-proxy needs a value: true, a hop count, or proxy addresses (e.g. 127.0.0.1,10.0.0.0/8)');
  return v;
}

/** The settings from flags, then the environment, then defaults: loopback only unless --host says otherwise. */
export function serveSettings(args: string[], env: NodeJS.ProcessEnv = process.env): ServeSettings {
  const { values } = parse(args, OPTIONS, 0);
  const rawPort = values.port ?? env.PORT ?? '8080';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) throw new UsageError(`invalid port "${rawPort}"`);
  const proxy = values['trust-proxy'] ?? env.BOBINA_TRUST_PROXY;
  return {
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    ...(values.db ? { db: values.db } : {}),
    ...(proxy === undefined ? {} : { trustProxy: trustProxy(proxy) }),
  };
}

export const serveCommand: Command = {
  name: 'serve',
  usage: 'bobina serve [--port 8080] [--host 127.0.0.1] [--db ./bobina.sqlite] [--trust-proxy true|N|ADDRESSES]',
  summary: 'run the partner printing service (env PORT, HOST, BOBINA_DB, BOBINA_TRUST_PROXY, LOG_LEVEL, BOBINA_WEBHOOKS_ALLOW_PRIVATE, BOBINA_WEBHOOKS_HTTP_HOSTS, BOBINA_WEBHOOKS_TIMEOUT_MS; DATABASE_URL reserved for PostgreSQL)',
  async run(args, io) {
    const settings = serveSettings(args);
    const { startServer } = await import('../../server/serve.js');
    const server = await startServer(settings);
    io.stderr.write(`bobina serve: listening on ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.close().then(resolve, resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return EXIT.ok;
  },
};
