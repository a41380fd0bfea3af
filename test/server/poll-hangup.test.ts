// A long-poll whose client hangs up before the service has begun to wait (while its key is checked,
// or its contact written) waits for nothing: it must not lease a job queued afterwards to a client
// that will never read the answer (a killed agent's last poll took an Iniciar'd job, and with it the
// reprint's grant). A real socket on 127.0.0.1: inject has no connection to close.
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { sha256 } from '../../src/server/auth/secrets.js';
import { harness, login, type Harness } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('does not lease a job to a long-poll whose client hung up as it sent it', async () => {
  h = await harness();
  const token = (await login(h.app)).access_token;
  const alice = (await h.store.accounts.findByEmail('alice@example.com'))!;
  const key = 'bobt_test_CAIXA-01';
  await h.store.credentials.setTerminalKey(alice.id, 'CAIXA-01', sha256(key), key.slice(0, 11));
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  // The request, and at once the client's end of the connection (as a killed process's socket ends).
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.on('error', () => undefined);
  socket.end(`POST /TerminalImpressao/ObterProxima?espera=20 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Length: 0\r\n\r\n`);
  await sleep(300);
  const job = (await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${token}`, payload: { conteudo: 'x', terminalId: 'CAIXA-01' } })).json().intencaoImpressao;
  await sleep(300);
  const now = (await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${token}&intencaoImpressaoId=${job.id}` })).json().intencaoImpressao;
  expect(now.estado).toBe('queued');
  socket.destroy();
}, 30_000);
