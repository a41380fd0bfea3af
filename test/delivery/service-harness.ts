// The service end to end, for the delivery tests that run real processes: a fresh database on the
// store under test (SQLite or PostgreSQL, test/support/store-target.ts), one account with an API
// key, `bobina serve` started and killed by pid, terminals with their own keys, `bobina agent`
// children (killed by pid after each test, helpers.ts), and the partner's calls (Insert, GetById,
// polled until a job gets somewhere). Call serviceHarness() at the top of a test file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { compile } from '../../src/index.js';
import { CLI } from '../support/cli.js';
import { startServe, stop } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';
import { child, type Child } from './helpers.js';

export interface Intencao {
  id: number;
  status: string;
  estado: string;
  motivos: string[];
  tentativas: number;
  confirmacao: string;
  codigoImpressora: string;
  impressoraId: number;
  tamanhoBytes: number;
  historico: { estado: string; motivos: string[]; origem: string; evento: string; detalhe: string | null }[];
}

export interface Terminal {
  id: string;
  key: string;
}

/** Webhooks to a receiver on 127.0.0.1 need the operator's switches (README: Webhooks). */
export const LOCAL_WEBHOOKS = { BOBINA_WEBHOOKS_ALLOW_PRIVATE: '1', BOBINA_WEBHOOKS_HTTP_HOSTS: '127.0.0.1' };

export const states = (i: Intencao) => i.historico.map((h) => (h.motivos.length ? `${h.estado}(${h.motivos.join(',')})` : h.estado));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { waitFor } from './helpers.js';

export interface HarnessOptions {
  /** The printer new terminals are linked to. */
  printer: string;
  /** Flags every `serve` of this file gets (after the database and --state-dir). */
  serveFlags?: string[];
  /** Environment of `serve` and of the CLI commands. */
  env?: Record<string, string>;
}

type Answer = { status: number; json: { intencaoImpressao: Intencao } & Record<string, unknown> };

export interface Harness {
  /** This run's own temp dir (journals, receivers' files). */
  dir: string;
  /** The service's URL, once started: its first start takes any free port, a restart the same one. */
  base: string;
  apiKey: string;
  email: string;
  cli(...args: string[]): string;
  /** The same without blocking this process (its virtual printers keep answering meanwhile). */
  cliAsync(...args: string[]): Promise<string>;
  start(...flags: string[]): Promise<void>;
  kill(): Promise<void>;
  /** What the running service logged (its warnings and errors: LOG_LEVEL=warn). */
  log(): string;
  /** Where direct delivery keeps a terminal's journal. */
  journalDir(terminalId: string): Promise<string>;
  terminal(flags?: string[], printer?: string): Terminal;
  /**
   * The same without blocking: for tests that run concurrently, where a blocking `bobina terminals
   * add` would hold up the other tests' virtual printers (in this process) past their status replies.
   */
  addTerminal(flags?: string[], printer?: string): Promise<Terminal>;
  agent(t: Terminal, device: string, extra?: string[], stateDir?: string): Child;
  api(method: string, path: string, body?: object, key?: string): Promise<Answer>;
  insert(terminalId: string, conteudo: string, extra?: object): Promise<Intencao>;
  getById(id: number): Promise<Intencao>;
  until(id: number, check: (i: Intencao) => boolean, timeoutMs?: number): Promise<Intencao>;
  bytesOf(conteudo: string, printer?: string): Buffer;
}

export function serviceHarness(o: HarnessOptions): Harness {
  let database: TestDatabase;
  /** The port the first start bound (serve --port 0): restarts reuse it, since the agents keep its URL. */
  let port: number | undefined;
  let terminals = 0;
  /** The service outlives single tests, so it is started and killed (by pid) here, not by helpers.ts. */
  let service: ChildProcess | undefined;
  let serviceLog = () => '';
  const cliEnv = () => ({ ...process.env, ...CHILD_ENV, ...o.env });
  const addTerminal = (id: string, flags: string[], printer: string) => ['terminals', 'add', '--email', h.email, '--terminal', id, '--printer', printer, '--print-key', ...flags];
  const h: Harness = {
    dir: '',
    base: '',
    apiKey: '',
    email: 'loja@example.com',

    cli(...args: string[]): string {
      const r = spawnSync(process.execPath, [CLI, ...args, ...database.flags], { encoding: 'utf8', env: cliEnv(), timeout: 20_000 });
      if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status} ${r.stderr}`);
      return r.stdout;
    },

    async cliAsync(...args: string[]): Promise<string> {
      const r = await run(process.execPath, [CLI, ...args, ...database.flags], { env: cliEnv(), timeoutMs: 20_000 });
      if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status ?? r.signal} ${r.stderr}`);
      return r.stdout;
    },

    /** Starts `serve` (journals of direct delivery in this run's dir, whichever the store). */
    async start(...flags: string[]): Promise<void> {
      const served = await startServe({ flags: [...database.flags, '--state-dir', join(h.dir, 'direct'), ...(o.serveFlags ?? []), ...flags], ...(port === undefined ? {} : { port }), ...(o.env ? { env: o.env } : {}) });
      service = served.proc;
      serviceLog = served.stdout;
      port = served.port;
      h.base = served.base;
    },

    log: () => serviceLog(),

    async journalDir(terminalId: string): Promise<string> {
      const [account] = JSON.parse(await h.cliAsync('users', 'list', '--json')) as { id: string; email: string }[];
      return join(h.dir, 'direct', encodeURIComponent(account!.id), encodeURIComponent(terminalId));
    },

    async kill(): Promise<void> {
      const proc = service;
      service = undefined;
      if (proc) await stop(proc, 'SIGKILL');
    },

    /** A new terminal linked to the harness's printer (or `printer`), with its own key: tests never share a queue. */
    terminal(flags: string[] = [], printer = o.printer): Terminal {
      const id = `PDV-${++terminals}`;
      return { id, key: lastLine(h.cli(...addTerminal(id, flags, printer))) };
    },

    async addTerminal(flags: string[] = [], printer = o.printer): Promise<Terminal> {
      const id = `PDV-${++terminals}`;
      return { id, key: lastLine(await h.cliAsync(...addTerminal(id, flags, printer))) };
    },

    /** `bobina agent` for a terminal, its journal in this run's dir unless given. */
    agent(t: Terminal, device: string, extra: string[] = [], stateDir = join(h.dir, t.id)): Child {
      return child([CLI, 'agent', '--url', h.base, '--key', t.key, '--terminal', t.id, '--device', device, '--state-dir', stateDir, '--wait', '5', '--retry-ms', '100', ...extra]);
    },

    async api(method: string, path: string, body?: object, key = h.apiKey): Promise<Answer> {
      const res = await fetch(`${h.base}${path}`, {
        method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json()) as { intencaoImpressao: Intencao } };
    },

    async insert(terminalId: string, conteudo: string, extra: object = {}): Promise<Intencao> {
      const r = await h.api('POST', '/IntencaoImpressao/Insert', { conteudo, terminalId, ...extra });
      expect(r.status).toBe(200);
      return r.json.intencaoImpressao;
    },

    getById: async (id: number) => (await h.api('GET', `/IntencaoImpressao/GetById?intencaoImpressaoId=${id}`)).json.intencaoImpressao,

    /** Polls GetById (the spec's fallback) until `check` holds; fails after `timeoutMs`. */
    async until(id: number, check: (i: Intencao) => boolean, timeoutMs = 20_000): Promise<Intencao> {
      const end = Date.now() + timeoutMs;
      let last: Intencao | undefined;
      for (;;) {
        try {
          last = await h.getById(id);
          if (check(last)) return last;
        } catch {
          // The service is restarting.
        }
        if (Date.now() > end) throw new Error(`job ${id} never got there; last: ${JSON.stringify(last)}`);
        await sleep(50);
      }
    },

    bytesOf: (conteudo: string, printer = o.printer) => Buffer.from(compile(conteudo, { printer }).bytes),
  };

  beforeAll(async () => {
    database = await freshDatabase('bobina-faults-');
    h.dir = database.dir;
    h.cli('users', 'add', '--email', h.email, '--password', 'pw-loja-1', '--name', 'Loja');
    h.apiKey = h.cli('keys', 'create', '--email', h.email).trim();
  }, 30_000);

  afterAll(async () => {
    await h.kill();
    await database?.drop();
  });

  return h;
}

const lastLine = (out: string) => out.trim().split('\n').at(-1)!;

/** Runs a command without blocking; SIGKILL (by pid) after `timeoutMs`. */
function run(command: string, args: string[], o: { env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { env: o.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: o.timeoutMs, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.once('error', reject);
    proc.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
