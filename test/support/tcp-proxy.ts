// A TCP proxy on 127.0.0.1 in front of real servers, to take a server away from its clients and
// give it back without touching the server itself, which other tests share: down() cuts every
// connection and refuses new ones, up() accepts again on the same port. Given several targets, each
// new connection goes to the first that accepts it: a fail-over load balancer in front of several
// `bobina serve` instances (test/delivery/cluster.test.ts), so a client carries on when one dies.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export interface Target {
  host: string;
  port: number;
}

export async function tcpProxy(target: Target | readonly Target[]): Promise<TcpProxy> {
  const targets = Array.isArray(target) ? target : [target as Target];
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  /** Connects to targets[i], or the next one when it refuses; undefined when none accepts. */
  const upstreamFrom = (i: number): Promise<Socket | undefined> => new Promise((resolve) => {
    const t = targets[i];
    if (!t) return resolve(undefined);
    const s = connect(t.port, t.host);
    track(s);
    const failed = () => {
      s.destroy();
      resolve(upstreamFrom(i + 1));
    };
    s.once('error', failed);
    s.once('connect', () => {
      s.off('error', failed);
      resolve(s);
    });
  });
  const make = (): Server => createServer((client) => {
    track(client);
    // Until piped, the client's bytes wait in its socket (no 'data' listener: not flowing).
    client.once('error', () => client.destroy());
    void upstreamFrom(0).then((upstream) => {
      if (!upstream || client.destroyed) {
        upstream?.destroy();
        client.destroy();
        return;
      }
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      upstream.once('error', cut);
      client.once('close', cut);
      upstream.once('close', cut);
      client.pipe(upstream).pipe(client);
    });
  });
  const listen = (server: Server, port: number) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  let server: Server | undefined = make();
  const port = await listen(server, 0);
  const down = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise((resolve) => s.close(resolve));
  };
  return {
    port,
    down,
    async up() {
      if (server) return;
      server = make();
      await listen(server, port);
    },
    close: down,
  };
}
