// A job queued through another connection to the same database wakes this service's parked
// long-polls: on PostgreSQL by LISTEN/NOTIFY, on SQLite (which carries no messages between
// processes) by the serving connection seeing the database's data_version move (store/sqlite/signals.ts).
// The second app here is a second connection, as a second process (or `bobina jobs start`) is.
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/auth/secrets.js';
import { harness, login, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0).reverse()) await h.close();
});

async function instance(file?: string): Promise<Harness> {
  const h = await harness(file === undefined ? {} : { file });
  open.push(h);
  return h;
}

async function terminalKey(h: Harness, terminalId: string): Promise<string> {
  const alice = (await h.store.accounts.findByEmail('alice@example.com'))!;
  const key = `bobt_test_${terminalId}`;
  await h.store.credentials.setTerminalKey(alice.id, terminalId, sha256(key), key.slice(0, 11));
  return key;
}

const insert = (h: Harness, token: string, terminalId: string, referencia: string) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${token}`, payload: { conteudo: `Olá ${referencia}<paperCutFull>`, terminalId, referencia } });
const next = (h: Harness, key: string, espera: number) =>
  h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?espera=${espera}`, headers: { authorization: `Bearer ${key}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a job queued by another process', () => {
  it("wakes the parked long-poll of its terminal, and only its terminal's: a job of another terminal is not handed out", async () => {
    const served = await instance();
    const other = await instance(served.file);
    const token = (await login(other.app)).access_token;
    const key = await terminalKey(served, 'CAIXA-01');
    const alice = (await served.store.accounts.findByEmail('alice@example.com'))!;
    await served.store.terminals.put({ accountId: alice.id, terminalId: 'CAIXA-02', printerId: 1, enabled: true });
    // Wait long: without a wake-up from the other connection, the poll would answer empty only when the wait runs out.
    const waiting = next(served, key, 25);
    await sleep(300);
    const elsewhere = (await insert(other, token, 'CAIXA-02', 'not-yours')).json().intencaoImpressao;
    const mine = (await insert(other, token, 'CAIXA-01', 'wake')).json().intencaoImpressao;
    const res = await waiting;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ trabalho: { intencaoImpressaoId: mine.id, referencia: 'wake' } });
    // Nothing more for CAIXA-01; CAIXA-02's job is still waiting for CAIXA-02.
    expect((await next(served, key, 0)).json().trabalho).toBeNull();
    const kept = await other.app.inject({ url: `/IntencaoImpressao/GetById?intencaoImpressaoId=${elsewhere.id}&key=${token}` });
    expect(kept.json().intencaoImpressao).toMatchObject({ estado: 'queued', terminalId: 'CAIXA-02' });
  }, 40_000);
});
