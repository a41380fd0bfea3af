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

/** The harness listening on 127.0.0.1, with a terminal key and a partner token. */
async function listening() {
  h = await harness();
  const token = (await login(h.app)).access_token;
  const alice = (await h.store.accounts.findByEmail('alice@example.com'))!;
  const key = 'bobt_test_CAIXA-01';
  await h.store.credentials.setTerminalKey(alice.id, 'CAIXA-01', sha256(key), key.slice(0, 11));
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const insert = async () => (await h!.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${token}`, payload: { conteudo: 'x', terminalId: 'CAIXA-01' } })).json().intencaoImpressao;
  const estado = async (id: number) => (await h!.app.inject({ url: `/IntencaoImpressao/GetById?key=${token}&intencaoImpressaoId=${id}` })).json().intencaoImpressao.estado;
  /** The request, and at once the client's end of the connection (as a killed process's socket ends). */
  const pollAndHangUp = async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    socket.end(`POST /TerminalImpressao/ObterProxima?espera=20 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Length: 0\r\n\r\n`);
    return socket;
  };
  return { insert, estado, pollAndHangUp };
}

it('does not lease a job to a long-poll whose client hung up as it sent it', async () => {
  const { insert, estado, pollAndHangUp } = await listening();
  const socket = await pollAndHangUp();
  await sleep(300);
  const job = await insert();
  await sleep(300);
  expect(await estado(job.id)).toBe('queued');
  socket.destroy();
}, 30_000);

it('does not lease a job already queued to a poll that arrives with its client\'s hang-up', async () => {
  // The request's bytes and the end of its connection are read in one go: on SQLite the whole
  // request could run (contact, claim) before the end was seen (a killed agent's last poll, sent
  // as it died, took the job a person had just started again, and its reprint grant with it).
  const { insert, estado, pollAndHangUp } = await listening();
  const job = await insert();
  const socket = await pollAndHangUp();
  await sleep(500);
  expect(await estado(job.id)).toBe('queued');
  socket.destroy();
}, 30_000);
