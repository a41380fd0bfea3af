// Issue 13's crash test: two `bobina serve` instances on one PostgreSQL schema under a steady load
// of inserts, one of them killed with SIGKILL in the middle; the other carries on. Three terminals,
// each with one `bobina agent` printing to its own virtual printer; each agent reaches the service
// through a fail-over proxy (a load balancer's job: the instance it prefers, else the other). Two
// terminals of the same model also take the account's template jobs, so their agents, on different
// instances until the kill, compete for every template job: a claim that two instances could both
// win prints that job on two printers, which the count at the printers catches. Runs in the
// `postgres` project only (vitest.config.ts). Every wait is bounded; every process is killed by pid.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { CLI } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { child, virtualPrinter } from './helpers.js';
import type { VirtualPrinter } from '../../src/delivery/index.js';

const EMAIL = 'rede@example.com';
/** `prefers`: the instance (0 = A, the one killed; 1 = B) its agent's proxy tries first. */
const TERMINALS = [
  { id: 'CAIXA-1', printer: 'MAKER5T20', templateJobs: true, prefers: 0 },
  { id: 'CAIXA-2', printer: 'MAKER5T20', templateJobs: true, prefers: 1 },
  { id: 'CAIXA-3', printer: 'MAKER1MP4200', templateJobs: false, prefers: 0 },
] as const;
/** What the load inserts, in turn: half template jobs (no terminal), half one terminal's jobs. */
const TARGETS = ['template', 'CAIXA-1', 'template', 'CAIXA-2', 'template', 'CAIXA-3'] as const;
const TEMPLATE_PRINTER = 'MAKER5T20';
const TICK_MS = 100;
/**
 * Jobs inserted and not yet printed, at most: above it the load skips its tick. So the work left
 * when the load stops is bounded by this, not by how slow the machine is (an open-ended load on a
 * loaded machine queued more jobs the slower the printing went, then had 30 s to print them all).
 */
const MAX_BACKLOG = 40;
const FINAL = ['completed', 'failed', 'canceled', 'expired'];

let database: TestDatabase;
let apiKey: string;
/** Each terminal's own key, for its agent. */
const keys = new Map<string, string>();

beforeAll(async () => {
  database = await freshDatabase('bobina-cluster-');
  cli('users', 'add', '--email', EMAIL, '--password', 'pw-rede-1', '--name', 'Rede');
  apiKey = cli('keys', 'create', '--email', EMAIL).trim();
  for (const t of TERMINALS) {
    const out = cli('terminals', 'add', '--email', EMAIL, '--terminal', t.id, '--printer', t.printer, ...(t.templateJobs ? ['--template-jobs'] : []), '--print-key');
    keys.set(t.id, out.trim().split('\n').at(-1)!);
  }
}, 60_000);

afterAll(async () => {
  await database?.drop();
}, 30_000);

function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args, ...database.flags], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV }, timeout: 30_000 });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
}

/** One statement on its own connection, outside both instances: what is really in the schema. */
async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const u = new URL(database.location);
  const schema = u.searchParams.get('schema')!;
  u.search = '';
  const client = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(text.replaceAll('$schema', `"${schema}"`))).rows;
  } finally {
    await client.end();
  }
}

/** What GetById answers, as far as this test reads it. */
interface Job {
  id: number;
  referencia: string;
  conteudo: string;
  codigoImpressora: string;
  estado: string;
  status: string;
}

interface Answer {
  instance: 0 | 1;
  referencia: string;
  conteudo: string;
  sentAt: number;
  doneAt: number;
  /** 0: no HTTP answer at all (connection refused or reset). */
  status: number;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await sleep(100);
  }
}

it('carries on when one of two instances on one PostgreSQL is killed under load: nothing answered 200 is lost, every job prints exactly once', async () => {
  const instances: Served[] = [];
  const proxies: TcpProxy[] = [];
  const answers: Answer[] = [];
  const inFlight = new Set<Promise<void>>();
  let load: Promise<void> | undefined;
  let running = true;
  try {
    // A short lease: a job whose client's answer died with its instance is offered again soon.
    for (const i of [0, 1]) {
      instances.push(await startServe({ flags: [...database.flags, '--lease', '5s', '--state-dir', join(database.dir, `direct-${i}`)], timeoutMs: 30_000 }));
    }
    const [a, b] = instances as [Served, Served];
    const printers = new Map<string, VirtualPrinter>();
    for (const t of TERMINALS) {
      const vp = await virtualPrinter({ printer: t.printer });
      printers.set(t.id, vp);
      const order = t.prefers === 0 ? [a, b] : [b, a];
      const proxy = await tcpProxy(order.map((s) => ({ host: '127.0.0.1', port: s.port })));
      proxies.push(proxy);
      child([CLI, 'agent', '--url', `http://127.0.0.1:${proxy.port}`, '--key', keys.get(t.id)!, '--terminal', t.id, '--device', vp.address,
        '--state-dir', join(database.dir, `agent-${t.id}`), '--wait', '5', '--retry-ms', '100']);
    }
    const printed = () => [...printers.values()].reduce((sum, vp) => sum + vp.jobs.length, 0);
    const accepted = () => answers.filter((x) => x.status === 200);

    let n = 0;
    const insert = (instance: 0 | 1) => {
      const target = TARGETS[n % TARGETS.length]!;
      const referencia = `C-${String(++n).padStart(5, '0')}`;
      const conteudo = `Cluster ${referencia}<br>${target}<paperCutFull>`;
      const body = target === 'template' ? { referencia, conteudo, codigoImpressora: TEMPLATE_PRINTER } : { referencia, conteudo, terminalId: target };
      const sentAt = Date.now();
      const p = fetch(`${instances[instance]!.base}/IntencaoImpressao/Insert`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body), signal: AbortSignal.timeout(15_000),
      }).then(async (res) => ({ status: res.status, body: await res.text() }), (err: Error) => ({ status: 0, body: String(err.cause ?? err) }))
        .then((r) => void answers.push({ instance, referencia, conteudo, sentAt, doneAt: Date.now(), ...r }));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    let killedAt = Infinity;
    const backlog = () => n - printed() - answers.filter((x) => x.status !== 200).length;
    // The load: every tick two inserts on each instance (all four on B once A is gone), never
    // waiting for the answers, so some are in flight when A dies; a tick is skipped while the
    // printers are MAX_BACKLOG jobs behind.
    load = (async () => {
      while (running) {
        if (backlog() < MAX_BACKLOG) {
          for (let i = 0; i < 2; i++) {
            insert(Date.now() < killedAt ? 0 : 1);
            insert(1);
          }
        }
        await sleep(TICK_MS);
      }
    })();
    await waitFor(() => printed() >= 20 && accepted().length >= 40, 25_000, () => `jobs printed before the kill (${printed()} printed, ${accepted().length} accepted)`);

    killedAt = Date.now();
    await stop(a.proc, 'SIGKILL');
    expect(a.proc.signalCode).toBe('SIGKILL');
    const printedAtKill = printed();
    // The load goes on against B alone until B has answered 40 inserts sent after the kill.
    const afterKill = () => answers.filter((x) => x.instance === 1 && x.sentAt > killedAt).length;
    await waitFor(() => afterKill() >= 40, 30_000, () => `B to answer 40 inserts sent after the kill (${afterKill()} answered)`);
    running = false;
    await load;
    await Promise.all([...inFlight]);

    // Every job the database holds reaches a final state, also one whose Insert answer died with A.
    let left = '';
    const unfinished = async () => {
      const rows = await sql<{ estado: string; n: number }>(`SELECT estado, count(*)::int AS n FROM $schema.intentions WHERE estado <> ALL('{${FINAL.join(',')}}') GROUP BY estado`);
      left = rows.map((r) => `${r.n} ${r.estado}`).join(', ');
      return rows.reduce((sum, r) => sum + r.n, 0);
    };
    await waitFor(async () => (await unfinished()) === 0, 30_000, () => `every job to reach a final state (${printed()} printed; not yet: ${left})`);

    // The survivor kept answering: every insert it was sent answered 200, many of them after the kill.
    expect(answers.filter((x) => x.instance === 1 && x.status !== 200)).toEqual([]);
    expect(answers.filter((x) => x.instance === 1 && x.sentAt > killedAt).length).toBeGreaterThanOrEqual(40);
    // A's only failures are requests open when it died, and those never got an HTTP answer.
    for (const x of answers.filter((y) => y.status !== 200)) expect({ instance: x.instance, status: x.status, open: x.doneAt >= killedAt }).toEqual({ instance: 0, status: 0, open: true });
    // And the agents really carried on through the other instance.
    expect(printed()).toBeGreaterThan(printedAtKill);

    // Every job the database holds, read back through GetById on the survivor (the columns' own
    // encoding is the store's business): each referencia once, each job printed.
    const getById = async (id: number): Promise<Job> => {
      const res = await fetch(`${b.base}/IntencaoImpressao/GetById?intencaoImpressaoId=${id}`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(10_000) });
      expect(res.status, `GetById ${id}`).toBe(200);
      return ((await res.json()) as { intencaoImpressao: Job }).intencaoImpressao;
    };
    const ids = (await sql<{ id: number }>('SELECT id FROM $schema.intentions ORDER BY id')).map((r) => Number(r.id));
    const rows: Job[] = [];
    for (let i = 0; i < ids.length; i += 20) rows.push(...(await Promise.all(ids.slice(i, i + 20).map(getById))));
    const byRef = new Map<string, Job[]>();
    for (const r of rows) byRef.set(r.referencia, [...(byRef.get(r.referencia) ?? []), r]);
    expect([...byRef].filter(([, rs]) => rs.length !== 1).map(([ref]) => ref)).toEqual([]);
    expect(rows.filter((r) => r.estado !== 'completed' || r.status !== 'Impresso')).toEqual([]);
    // Nothing answered 200 is lost: each is there, under the id and referencia it was answered with.
    for (const x of accepted()) {
      const id = (JSON.parse(x.body) as { intencaoImpressao: { id: number } }).intencaoImpressao.id;
      expect(byRef.get(x.referencia)?.map((r) => r.id), x.referencia).toEqual([id]);
    }

    // Every job in the database printed exactly once over all printers, with the bytes compile() gives.
    const copies = new Map<string, number>();
    for (const t of TERMINALS) {
      for (const job of printers.get(t.id)!.jobs) {
        const bytes = Buffer.from(job.bytes);
        const ref = /Cluster (C-\d{5})/.exec(bytes.toString('latin1'))?.[1];
        expect(ref, `a job printed at ${t.id} that names no insert`).toBeDefined();
        copies.set(ref!, (copies.get(ref!) ?? 0) + 1);
        const row = byRef.get(ref!)?.[0];
        expect(row, `${ref} printed at ${t.id} but not in the database`).toBeDefined();
        expect(row!.codigoImpressora).toBe(t.printer);
        expect(bytes.equals(Buffer.from(compile(row!.conteudo, { printer: t.printer }).bytes)), `${ref} at ${t.id}: bytes differ from compile()`).toBe(true);
      }
    }
    expect([...copies].filter(([, c]) => c !== 1)).toEqual([]);
    expect(rows.map((r) => r.referencia).filter((ref) => !copies.has(ref))).toEqual([]);
    // The template jobs were contested: both agents that take them won some.
    for (const id of ['CAIXA-1', 'CAIXA-2']) {
      expect(printers.get(id)!.jobs.some((j) => Buffer.from(j.bytes).toString('latin1').includes('template')), `${id} printed no template job`).toBe(true);
    }
  } finally {
    running = false;
    await load;
    await Promise.all(instances.map((s) => stop(s.proc, 'SIGKILL')));
    await Promise.all(proxies.map((p) => p.close()));
  }
}, 90_000);
