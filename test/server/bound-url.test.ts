// serve's `listening on` line names the address it bound (docs/service.md, `--port`): with
// `--host 0.0.0.0` or `::` that is the unspecified address, not one loopback address of it, which
// would read as if the service took connections from this machine only (docs/storage.md's example).
// The tests bind 127.0.0.1 only, so the unspecified addresses are given as the server reports them.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { boundUrl } from '../../src/server/serve.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('the address serve says it listens on', () => {
  it('is the address bound, IPv6 in brackets, the unspecified ones as they are', () => {
    const at = (address: string, family: string): AddressInfo => ({ address, family, port: 8080 });
    expect(boundUrl(at('0.0.0.0', 'IPv4'))).toBe('http://0.0.0.0:8080');
    expect(boundUrl(at('::', 'IPv6'))).toBe('http://[::]:8080');
    expect(boundUrl(at('::1', 'IPv6'))).toBe('http://[::1]:8080');
    expect(boundUrl(at('127.0.0.1', 'IPv4'))).toBe('http://127.0.0.1:8080');
  });

  it("is the port the system picked for port 0, read from the server's own address", async () => {
    server = createServer();
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    expect(port).toBeGreaterThan(0);
    expect(boundUrl(server.address() as AddressInfo)).toBe(`http://127.0.0.1:${port}`);
  });
});
