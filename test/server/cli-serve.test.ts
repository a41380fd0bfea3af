// End to end through the built CLI: accounts and terminals added with `bobina users/terminals/keys`,
// then `bobina serve` on a free port spoken to over HTTP, restarted, and still holding everything.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startServe, stop as stopProcess, type Served } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
let served: Served | undefined;

const bobina = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, ...database.flags], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV }, timeout: 20_000 });

async function serve(): Promise<string> {
  served = await startServe({ flags: database.flags });
  return served.base;
}

async function stop() {
  if (served) await stopProcess(served.proc, 'SIGTERM');
  served = undefined;
}

beforeAll(async () => {
  database = await freshDatabase('bobina-cli-');
});
afterAll(async () => {
  if (served) await stopProcess(served.proc, 'SIGKILL');
  await database?.drop();
});

const json = { 'content-type': 'application/json' };

describe('bobina serve with accounts managed from the CLI', () => {
  it('adds a user, refuses a duplicate e-mail, and links a terminal', () => {
    const add = bobina('users', 'add', '--email', 'ana@example.com', '--password', 'pw-ana-1', '--name', 'Ana', '--meta', 'documentNumber=123', '--role', 'RECONCILIATION_CONCILIATOR');
    expect(add.status).toBe(0);
    const dup = bobina('users', 'add', '--email', 'ANA@example.com', '--password', 'x', '--name', 'Other');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    expect(bobina('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV-1', '--printer', 'maker1mp4200').status).toBe(0);
    expect(bobina('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV-2', '--printer', '3', '--disabled').status).toBe(0);
    expect(bobina('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'X', '--printer', 'NOPE').status).toBe(2);
  });

  it('logs in, inserts and reads back over HTTP, and keeps everything across a restart', async () => {
    const apiKey = bobina('keys', 'create', '--email', 'ana@example.com', '--name', 'pos').stdout.trim();
    expect(apiKey).toMatch(/^bob_/);

    let base = await serve();
    const tokenRes = await fetch(`${base}/auth/reconciliation/token`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'ana@example.com', password: 'pw-ana-1', grant_type: 'password' }) });
    expect(tokenRes.status).toBe(200);
    const { access_token, user_detail } = (await tokenRes.json()) as { access_token: string; user_detail: { metadata: unknown[] } };
    expect(user_detail.metadata).toHaveLength(1);

    const ins = await fetch(`${base}/IntencaoImpressao/Insert?key=${access_token}`, { method: 'POST', headers: json, body: JSON.stringify({ referencia: 'e2e', conteudo: 'Olá<paperCutFull>', terminalId: 'PDV-1' }) });
    expect(ins.status).toBe(200);
    const created = ((await ins.json()) as { intencaoImpressao: { id: number; status: string } }).intencaoImpressao;
    expect(created.status).toBe('ImpressaoEnviada');
    const disabled = await fetch(`${base}/IntencaoImpressao/Insert`, { method: 'POST', headers: { ...json, authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ conteudo: 'x', terminalId: 'PDV-2' }) });
    expect(disabled.status).toBe(409);

    await stop();
    base = await serve();
    for (const k of [access_token, apiKey]) {
      const res = await fetch(`${base}/IntencaoImpressao/GetById?key=${encodeURIComponent(k)}&intencaoImpressaoId=${created.id}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { intencaoImpressao: { referencia: string } }).intencaoImpressao.referencia).toBe('e2e');
    }
    const docs = await fetch(`${base}/openapi.json`);
    expect(docs.status).toBe(200);
  }, 30_000); // two service starts and three CLI processes: ~2.5 s each start on a loaded 2-core VM
});
