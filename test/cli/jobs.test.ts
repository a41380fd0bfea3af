// `bobina jobs list | show | cancel | start | reprint` (issue 23 §7) as child processes against the
// database this run tests: the same rows and records the API answers (GetAll, GetById), the same
// state changes with their history and webhook messages (Cancelar, Iniciar, Reimprimir), one
// account's jobs with --user, and usage errors and refusals as one line, never a stack.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { newApiKey, newTerminalKey, sha256 } from '../../src/server/auth/secrets.js';
import type { Store } from '../../src/server/store/repositories.js';
import { bobina, CLI_TEST_TIMEOUT, STACK } from '../support/cli.js';
import { freshDatabase, type TestDatabase } from '../support/store-target.js';

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

let database: TestDatabase;
let store: Store;
let app: FastifyInstance;
let aliceKey: string;
let bobKey: string;
let aliceId: string;

const run = (...args: string[]) => {
  const r = bobina(['jobs', ...args, ...database.flags]);
  return { ...r, out: r.stdout.toString('utf8') };
};
const insert = async (body: object, key = aliceKey) => (await app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: body })).json().intencaoImpressao;
const getById = async (id: number) => (await app.inject({ url: `/IntencaoImpressao/GetById?key=${aliceKey}&intencaoImpressaoId=${id}` })).json().intencaoImpressao;

beforeAll(async () => {
  database = await freshDatabase('bobina-cli-jobs-');
  store = await database.open();
  app = await buildApp({ store, logLevel: 'silent', storeWorkers: false });
  const account = async (email: string, terminalId: string) => {
    const a = await store.accounts.create({ email, name: email, passwordHash: 'unused', metadata: [], roles: [] });
    await store.terminals.put({ accountId: a.id, terminalId, printerId: 1, enabled: true });
    const key = newApiKey();
    await store.credentials.createApiKey({ accountId: a.id, name: 'test', keyHash: sha256(key), prefix: key.slice(0, 10) });
    return { id: a.id, key };
  };
  const alice = await account('alice@example.com', 'CAIXA-01');
  aliceId = alice.id;
  aliceKey = alice.key;
  bobKey = (await account('bob@example.com', 'BOB-01')).key;
}, 30_000);
afterAll(async () => {
  await app?.close();
  await store?.close();
  await database?.drop();
});

describe('bobina jobs', () => {
  it('lists the rows GetAll answers, filtered, one account with --user or every account without', async () => {
    const a = await insert({ conteudo: 'a', terminalId: 'CAIXA-01', referencia: 'lista' });
    const b = await insert({ conteudo: 'b', terminalId: 'CAIXA-01', referencia: 'lista', aguardarClienteIniciarImpressao: true });
    const bobs = await insert({ conteudo: 'c', terminalId: 'BOB-01', referencia: 'lista' }, bobKey);
    const api = (await app.inject({ url: `/IntencaoImpressao/GetAll?key=${aliceKey}&referencia=lista` })).json();
    const mine = run('list', '--user', 'alice@example.com', '--referencia', 'lista', '--json');
    expect(mine.code, mine.stderr).toBe(0);
    expect(JSON.parse(mine.out)).toEqual({ intencoes: api.intencoes, proximoCursor: null });
    expect(api.intencoes.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);

    const held = JSON.parse(run('list', '--user', 'alice@example.com', '--estado', 'held', '--json').out);
    expect(held.intencoes.map((r: { id: number }) => r.id)).toEqual([b.id]);
    const everyone = JSON.parse(run('list', '--referencia', 'lista', '--limit', '2', '--json').out);
    expect(everyone.intencoes.map((r: { id: number; usuario: string }) => [r.id, r.usuario])).toEqual([[bobs.id, 'bob@example.com'], [b.id, 'alice@example.com']]);
    expect(everyone.proximoCursor).toEqual(expect.any(String));
    const rest = JSON.parse(run('list', '--referencia', 'lista', '--cursor', everyone.proximoCursor, '--json').out);
    expect(rest.intencoes.map((r: { id: number }) => r.id)).toEqual([a.id]);

    const table = run('list', '--user', 'alice@example.com', '--terminal', 'CAIXA-01');
    expect(table.out.split('\n')[0]).toMatch(/^ID\s+CREATED\s+STATE/);
    expect(table.out).toMatch(new RegExp(`^${b.id}\\s.*\\sheld\\s`, 'm'));
    expect(table.out).not.toMatch(/BOB-01/);
  });

  it('shows a job as GetById does, and only within --user\'s account', async () => {
    const job = await insert({ conteudo: 'mostra<paperCutFull>', terminalId: 'CAIXA-01', referencia: 'show' });
    const shown = run('show', String(job.id), '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.out)).toEqual(await getById(job.id));
    const text = run('show', String(job.id));
    expect(text.out).toMatch(new RegExp(`^job ${job.id}: queued`));
    expect(text.out).toMatch(/insert-queued → queued by server/);
    const foreign = run('show', String(job.id), '--user', 'bob@example.com');
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/no job/);
  });

  it('starts a held job and cancels one, as Iniciar and Cancelar do, with their history and webhook messages', async () => {
    const endpoint = await store.webhooks.createEndpoint({ accountId: aliceId, url: 'https://hooks.example.com/bobina', events: ['canceled'], secret: 'whsec_test' }, 10);
    expect('id' in endpoint).toBe(true);
    const held = await insert({ conteudo: 'x', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true });
    const started = run('start', String(held.id));
    expect(started.code, started.stderr).toBe(0);
    expect(started.out).toBe(`job ${held.id} started: now queued\n`);
    expect((await getById(held.id)).historico.at(-1)).toMatchObject({ evento: 'start', estado: 'queued', detalhe: 'started by the partner' });
    const again = run('start', String(held.id));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not waiting to be started \(job-not-startable\)/);
    expect(again.stderr).not.toMatch(STACK);

    const canceled = run('cancel', String(held.id), '--user', 'alice@example.com');
    expect(canceled.code, canceled.stderr).toBe(0);
    expect((await getById(held.id)).estado).toBe('canceled');
    const messages = await store.webhooks.listMessages(aliceId, { intencaoImpressaoId: held.id, limit: 10 });
    expect(messages.map((m) => m.eventType)).toEqual(['intencaoImpressao.canceled']);
    const foreign = run('cancel', String(held.id), '--user', 'bob@example.com');
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/not found \(intention-not-found\)/);
  });

  it('reprints a job with an escaped marker, linked and counted like Reimprimir', async () => {
    const original = await insert({ conteudo: 'Cupom', terminalId: 'CAIXA-01' });
    const r = run('reprint', String(original.id), '--marcador', '2ª VIA <cashDrawerOpen>');
    expect(r.code, r.stderr).toBe(0);
    const copyId = Number(/^job (\d+) is a reprint of job/.exec(r.out)![1]);
    expect(await getById(copyId)).toMatchObject({ reimpressaoDe: original.id, conteudo: '2ª VIA &lt;cashDrawerOpen>\nCupom', estado: 'queued', terminalId: 'CAIXA-01' });
    expect((await getById(original.id)).reimpressoes).toBe(1);
    for (const bad of ['x'.repeat(65), 'a\nb']) {
      const refused = run('reprint', String(original.id), '--marcador', bad);
      expect(refused.code).toBe(2);
      expect(refused.stderr).not.toMatch(STACK);
    }
    expect((await getById(original.id)).reimpressoes).toBe(1);
  });

  it('shows what a terminal or a partner wrote with its control characters escaped, in text and in --json', async () => {
    // A terminal key chooses versaoAgente (Sinal) and detalhe (Reportar), the partner its reference:
    // each could clear the operator's screen (ESC [2J), set its title (OSC 0) or plant a link (OSC 8).
    const terminalKey = newTerminalKey();
    await store.terminals.put({ accountId: aliceId, terminalId: 'CAIXA-ESC', printerId: 1, enabled: true });
    await store.credentials.setTerminalKey(aliceId, 'CAIXA-ESC', sha256(terminalKey), terminalKey.slice(0, 11));
    const terminal = { authorization: `Bearer ${terminalKey}` };
    const version = '1.0\x1b[2J\x1b]0;pwned\x07\u009b31m\u202e';
    const detail = 'paper \x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ out\x7f';
    const sinal = await app.inject({ method: 'POST', url: '/TerminalImpressao/Sinal', headers: terminal, payload: { impressora: { pronta: true, motivos: [] }, versaoAgente: version } });
    expect(sinal.statusCode, sinal.body).toBe(200);
    const job = await insert({ conteudo: 'x', terminalId: 'CAIXA-ESC', referencia: 'ref\u009b2J\u007f' });
    const offer = (await app.inject({ method: 'POST', url: '/TerminalImpressao/ObterProxima?espera=0', headers: terminal })).json();
    expect(offer.trabalho?.intencaoImpressaoId).toBe(job.id);
    const reported = await app.inject({ method: 'POST', url: '/TerminalImpressao/Reportar', headers: terminal, payload: { intencaoImpressaoId: job.id, tokenEntrega: offer.trabalho.tokenEntrega, estado: 'failed', motivos: ['other'], detalhe: detail } });
    expect(reported.statusCode, reported.body).toBe(200);
    const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
    const status = bobina(['terminals', 'status', '--user', 'alice@example.com', ...database.flags]);
    const shown = [status, run('show', String(job.id)), run('list', '--user', 'alice@example.com', '--referencia', 'ref\u009b2J\u007f')];
    for (const r of shown) {
      expect(r.code, r.stderr.toString()).toBe(0);
      expect(r.stdout.toString('utf8')).not.toMatch(unsafe);
    }
    expect(status.stdout.toString('utf8')).toContain('1.0\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202e');
    expect(shown[1]!.stdout.toString('utf8')).toContain('by printer: paper \\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\ out\\x7f');
    expect(shown[1]!.stdout.toString('utf8')).toContain('reference "ref\\u009b2J\\u007f"');
    expect(shown[2]!.stdout.toString('utf8')).toContain('"ref\\u009b2J\\u007f"');
    // --json: the same values once parsed, and nothing unsafe as written.
    const json = [bobina(['terminals', 'status', '--user', 'alice@example.com', '--json', ...database.flags]), run('show', String(job.id), '--json')];
    for (const r of json) expect(r.stdout.toString('utf8')).not.toMatch(unsafe);
    expect(JSON.parse(json[0]!.stdout.toString('utf8')).find((t: { terminalId: string }) => t.terminalId === 'CAIXA-ESC').versaoAgente).toBe(version);
    expect(JSON.parse(json[1]!.stdout.toString('utf8')).historico.at(-1).detalhe).toBe(detail);
  });

  it('names --user in the usage of every subcommand that takes it (each one does)', () => {
    const usage = run('--help').stdout.toString('utf8');
    for (const sub of ['list', 'show ID', 'cancel ID', 'start ID', 'reprint ID']) {
      const segment = new RegExp(`(?:jobs |\\| )${sub} ([^|]*)`).exec(usage)?.[1];
      expect(segment, sub).toContain('[--user EMAIL]');
    }
  });

  it('refuses bad arguments with a usage error', () => {
    for (const args of [['list', '--estado', 'printed'], ['list', '--limit', '501'], ['show', 'abc']]) {
      const r = run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(STACK);
    }
  });
});
