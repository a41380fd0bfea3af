// `bobina serve`: runs the partner printing service until SIGINT/SIGTERM. The server (fastify,
// SQLite) is imported only here, at run time, so other commands start without loading it.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';

export const serveCommand: Command = {
  name: 'serve',
  usage: 'bobina serve [--port 8080] [--host 0.0.0.0] [--db ./bobina.sqlite]',
  summary: 'run the partner printing service (env PORT, HOST, BOBINA_DB, LOG_LEVEL; DATABASE_URL reserved for PostgreSQL)',
  async run(args, io) {
    const { values } = parse(args, { port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' } }, 0);
    const port = Number(values.port ?? process.env.PORT ?? 8080);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid port "${values.port ?? process.env.PORT}"`);
    const { startServer } = await import('../../server/serve.js');
    const server = await startServer({ port, host: values.host ?? process.env.HOST ?? '0.0.0.0', ...(values.db ? { db: values.db } : {}) });
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
