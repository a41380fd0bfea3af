// A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL here), to take the server away
// from a service and give it back without touching the server itself, which other tests share:
// down() cuts every connection and refuses new ones, up() accepts again on the same port.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const make = (): Server => createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', cut);
    upstream.once('error', cut);
    client.once('close', cut);
    upstream.once('close', cut);
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
