// Webhooks through the built CLI and a real `bobina serve` process: endpoints managed with
// `bobina webhooks`, and the invariant that matters most — a job's notice is never lost — checked
// by killing the service with SIGKILL while the notice is on its way, then restarting it.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startServe, stop } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';
import { verifyWebhook } from '../../src/index.js';
import { WEBHOOK_EVENTS } from '../../src/server/webhooks/messages.js';
import { startReceiver, until, type Receiver } from './webhook-receiver.js';

const LOCAL = { BOBINA_WEBHOOKS_ALLOW_PRIVATE: '1', BOBINA_WEBHOOKS_HTTP_HOSTS: '127.0.0.1' };
let database: TestDatabase;
const children: ChildProcess[] = [];
const receivers: Receiver[] = [];

const bobina = (args: string[], env: Record<string, string> = LOCAL) =>
  spawnSync(process.execPath, [CLI, ...args, ...database.flags], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV, BOBINA_WEBHOOKS_ALLOW_PRIVATE: '', ...env }, timeout: 20_000 });

async function serve(env: Record<string, string>): Promise<{ base: string; child: ChildProcess }> {
  const served = await startServe({ flags: database.flags, env, timeoutMs: 15_000 });
  children.push(served.proc);
  return { base: served.base, child: served.proc };
}

const killed = (child: ChildProcess, signal: NodeJS.Signals) => stop(child, signal);

beforeAll(async () => {
  database = await freshDatabase('bobina-webhooks-');
  expect(bobina(['users', 'add', '--email', 'ana@example.com', '--password', 'pw-ana-1', '--name', 'Ana']).status).toBe(0);
});
afterAll(async () => {
  for (const c of children) await killed(c, 'SIGKILL');
  for (const r of receivers) await r.close();
  await database?.drop();
});

describe('bobina webhooks', () => {
  it('adds (secret printed once), lists without secrets, rotates, removes; refuses bad input', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const add = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/a`, '--event', 'completed', '--event', 'stopped']);
    expect(add.status, add.stderr).toBe(0);
    const secret = add.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const id = /webhook (wh_\S+)/.exec(add.stderr)![1]!;

    const list = bobina(['webhooks', 'list', '--email', 'ana@example.com', '--json']);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id, events: ['completed', 'stopped'], enabled: true, secrets: 1 })]);
    expect(list.stdout).not.toContain('whsec_');

    const rotated = bobina(['webhooks', 'rotate-secret', '--email', 'ana@example.com', '--id', id]);
    expect(rotated.status).toBe(0);
    expect(rotated.stdout.trim()).toMatch(/^whsec_/);
    expect(rotated.stdout.trim()).not.toBe(secret);
    expect(JSON.parse(bobina(['webhooks', 'list', '--email', 'ana@example.com', '--json']).stdout)[0].secrets).toBe(2);
    // A leaked secret: the new one signs alone, at once.
    const leaked = bobina(['webhooks', 'rotate-secret', '--email', 'ana@example.com', '--id', id, '--expire-previous']);
    expect(leaked.status).toBe(0);
    expect(leaked.stderr).toContain('the previous ones no longer sign');
    expect(JSON.parse(bobina(['webhooks', 'list', '--email', 'ana@example.com', '--json']).stdout)[0].secrets).toBe(1);

    expect(bobina(['webhooks', 'remove', '--email', 'ana@example.com', '--id', id]).status).toBe(0);
    expect(bobina(['webhooks', 'remove', '--email', 'ana@example.com', '--id', id]).status).toBe(1);
    // Without the operator's switch, a loopback address is refused by the CLI as by the service.
    const refused = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/a`], { BOBINA_WEBHOOKS_HTTP_HOSTS: '127.0.0.1' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/private, loopback/);
    expect(bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', 'https://example.com', '--event', 'printed']).status).toBe(2);
  }, 30_000);

  it('names in its usage every event add takes, the fleet events too', () => {
    const help = bobina(['webhooks', '--help']);
    const events = /--event ([a-z.|]+) \.\.\.\]/.exec(help.stdout + help.stderr)?.[1]?.split('|');
    expect(events).toEqual([...WEBHOOK_EVENTS]);
    // And every variable it reads, the endpoint limit too.
    expect(help.stdout).toContain('(env BOBINA_WEBHOOKS_ALLOW_PRIVATE, BOBINA_WEBHOOKS_HTTP_HOSTS, BOBINA_WEBHOOKS_MAX_ENDPOINTS)');
  });

  it('refuses a second endpoint for the same URL, and one past BOBINA_WEBHOOKS_MAX_ENDPOINTS', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const env = { ...LOCAL, BOBINA_WEBHOOKS_MAX_ENDPOINTS: '2' };
    const first = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/one`], env);
    expect(first.status, first.stderr).toBe(0);
    const id = /webhook (wh_\S+)/.exec(first.stderr)![1]!;
    const again = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/one`], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`already has webhook ${id} for this URL`);
    expect(bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/two`], env).status).toBe(0);
    const over = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/three`], env);
    expect(over.status).toBe(1);
    expect(over.stderr).toMatch(/has 2 webhook endpoints, the most it may have/);
    for (const e of JSON.parse(bobina(['webhooks', 'list', '--email', 'ana@example.com', '--json']).stdout) as { id: string }[]) {
      expect(bobina(['webhooks', 'remove', '--email', 'ana@example.com', '--id', e.id]).status).toBe(0);
    }
  }, 30_000);

  it('replay tells a message whose webhook was removed from one the account does not have', async () => {
    const add = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', 'http://127.0.0.1:9/gone']);
    expect(add.status, add.stderr).toBe(0);
    const id = /webhook (wh_\S+)/.exec(add.stderr)![1]!;
    const store = await database.open();
    try {
      const account = (await store.accounts.findByEmail('ana@example.com'))!;
      await store.webhooks.enqueue([{
        id: 'msg_replay_gone', accountId: account.id, endpointId: id, url: 'http://127.0.0.1:9/gone', target: 'origin:http://127.0.0.1:9',
        eventType: 'intencao.completed', intencaoImpressaoId: 1, body: '{}', createdAt: new Date(),
      }]);
    } finally {
      await store.close();
    }
    expect(bobina(['webhooks', 'remove', '--email', 'ana@example.com', '--id', id]).status).toBe(0);
    const removed = bobina(['webhooks', 'replay', '--email', 'ana@example.com', '--message', 'msg_replay_gone']);
    expect(removed.status).toBe(1);
    expect(removed.stderr).toBe(`bobina webhooks: message msg_replay_gone cannot be sent again: its webhook ${id} was removed\n`);
    const unknown = bobina(['webhooks', 'replay', '--email', 'ana@example.com', '--message', 'msg_nope']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('bobina webhooks: no message msg_nope in this account\n');
  }, 30_000);

  it('delivers a notice after serve was killed with SIGKILL while sending it: same webhook-id, one 2xx recorded', async () => {
    const r = await startReceiver();
    receivers.push(r);
    r.script = ['hang'];
    const add = bobina(['webhooks', 'add', '--email', 'ana@example.com', '--url', `${r.url}/hook`]);
    expect(add.status, add.stderr).toBe(0);
    const secret = add.stdout.trim();
    const apiKey = bobina(['keys', 'create', '--email', 'ana@example.com']).stdout.trim();
    const env = { ...LOCAL, BOBINA_WEBHOOKS_TIMEOUT_MS: '1000' };

    const first = await serve(env);
    const ins = await fetch(`${first.base}/IntencaoImpressao/Insert?key=${apiKey}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ referencia: 'crash', conteudo: 'x', codigoImpressora: 'GENERICA' }),
    });
    expect(ins.status).toBe(200);
    const job = ((await ins.json()) as { intencaoImpressao: { id: number; status: string } }).intencaoImpressao;
    expect(job.status).toBe('Impresso');
    // The notice is on the wire, unanswered: the state change is committed, the send is not done.
    await r.waitFor(1, 10_000);
    await killed(first.child, 'SIGKILL');

    await serve(env);
    const [held, again] = await r.waitFor(2, 15_000);
    expect(again!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    expect(again!.path).toBe(`/hook?intencaoImpressaoId=${job.id}`);
    expect(await verifyWebhook(secret, again!.headers, again!.body)).toMatchObject({ data: { intencaoImpressaoId: job.id, referencia: 'crash', estado: 'completed' } });

    const attempts = await until(() => {
      const out = bobina(['webhooks', 'log', '--email', 'ana@example.com', '--intention', String(job.id), '--json']);
      const list = JSON.parse(out.stdout) as Array<{ statusCode: number | null; messageState: string }>;
      return list.length > 0 && list.every((a) => a.messageState === 'delivered') ? list : undefined;
    }, 10_000, 'the attempt in the log');
    expect(attempts.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const table = bobina(['webhooks', 'log', '--email', 'ana@example.com']);
    expect(table.stdout).toMatch(/TIME\s+MESSAGE\s+WEBHOOK/);
    expect(table.stdout).toContain(held!.headers['webhook-id']);
  }, 60_000);
});
