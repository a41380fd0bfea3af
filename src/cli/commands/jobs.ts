// `bobina jobs list | show | cancel | start | reprint`: print jobs for operators, against the
// database like the other account commands, through the same use cases as the API's routes
// (GetAll, GetById, Cancelar, Iniciar, Reimprimir: src/server/jobs/partner.ts), so a state change
// here writes its history row and its webhook messages as the service would. `--user EMAIL`
// narrows to one account; without it, `list` shows every account's jobs and the others find the
// job's account by its id (the operator holds the database itself).
import { JOB_ID_PATTERN } from '../../delivery/job-id.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { json, printable, quoted } from '../printable.js';
import { columns } from '../table.js';
import { accountByEmail, STORE_OPTIONS, withStore } from '../with-store.js';
import type { Store } from '../../server/store/repositories.js';
import type { Jobs } from '../../server/jobs/jobs.js';
import type { JobState } from '../../server/store/types.js';

const STATES: readonly JobState[] = ['held', 'queued', 'acquired', 'printing', 'stopped', 'completed', 'failed', 'canceled', 'expired'];
const USER = { user: { type: 'string' }, email: { type: 'string' } } as const;

/** A job id argument: a positive integer. */
function jobId(positionals: string[]): number {
  const raw = positionals[0];
  if (raw === undefined) throw new UsageError('give the job id (intencaoImpressaoId)');
  if (!new RegExp(JOB_ID_PATTERN).test(raw)) throw new UsageError(`"${raw}" is not a job id`);
  return Number(raw);
}

/** The store and the job use cases with the service's webhook outbox as their event sink; both closed after fn. */
async function withJobs(values: { db?: string | undefined; 'database-url'?: string | undefined }, fn: (store: Store, jobs: Jobs) => Promise<number>): Promise<number> {
  const [{ Jobs }, { webhookOutbox }] = await Promise.all([import('../../server/jobs/jobs.js'), import('../../server/webhooks/outbox.js')]);
  return withStore(values, async (store) => {
    const jobs = new Jobs(store, webhookOutbox());
    try {
      return await fn(store, jobs);
    } finally {
      jobs.close();
    }
  });
}

/** `--user` (or `--email`, as the other account commands call it). */
const userOf = (values: { user?: string | undefined; email?: string | undefined }) => values.user ?? values.email;

/** The account of `--user`, or the job's own; undefined after saying why on stderr. */
async function accountFor(store: Store, values: { user?: string | undefined; email?: string | undefined }, id: number, io: Io): Promise<string | undefined> {
  const email = userOf(values);
  if (email !== undefined) return (await accountByEmail(store, email, io, 'jobs'))?.id;
  const owner = await store.intentions.ownerOf(id);
  if (owner === undefined) io.stderr.write(`bobina jobs: no job ${id}\n`);
  return owner;
}

/**
 * A refusal of the service's catalogue (not found, not cancelable, …) as one line on stderr, exit 1;
 * a value the command was given that the service cannot use (invalid-request: a cursor it never
 * handed out) is a usage error, named by its flag (exit 2).
 */
async function refusable(io: Io, fn: () => Promise<number>): Promise<number> {
  const { Problem } = await import('../../server/errors.js');
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    if (err.code === 'invalid-request') throw new UsageError(err.message.replace(/^querystring\/(\w+)/, '--$1'));
    io.stderr.write(`bobina jobs: ${err.message} (${err.code})\n`);
    return EXIT.failed;
  }
}

async function list(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    ...USER, estado: { type: 'string' }, terminal: { type: 'string' }, referencia: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' },
    json: { type: 'boolean' }, ...STORE_OPTIONS,
  }, 0);
  const { LIST_PAGE } = await import('../../server/schemas/intentions.js');
  if (values.estado !== undefined && !STATES.includes(values.estado as JobState)) throw new UsageError(`--estado must be one of ${STATES.join(', ')}`);
  const limit = values.limit === undefined ? LIST_PAGE.default : Number(values.limit);
  if (!/^[0-9]{1,6}$/.test(values.limit ?? '1') || limit < 1 || limit > LIST_PAGE.max) throw new UsageError(`--limit must be from 1 to ${LIST_PAGE.max}`);
  const { intentionRow } = await import('../../server/routes/intention-view.js');
  return withJobs(values, (store, jobs) => refusable(io, async () => {
    const email = userOf(values);
    const account = email === undefined ? null : await accountByEmail(store, email, io, 'jobs');
    if (account === undefined) return EXIT.failed;
    const page = await jobs.partner.list({
      accountId: account?.id ?? null,
      ...(values.estado === undefined ? {} : { estado: values.estado as JobState }),
      ...(values.terminal === undefined ? {} : { terminalId: values.terminal }),
      ...(values.referencia === undefined ? {} : { referencia: values.referencia }),
    }, { cursor: values.cursor, limit });
    // Across accounts, each row says whose it is.
    const emails = account ? undefined : new Map((await store.accounts.list()).map((a) => [a.id, a.email]));
    const rows = page.jobs.map((j) => ({ ...intentionRow(j), ...(emails ? { usuario: emails.get(j.accountId) ?? j.accountId } : {}) }));
    if (values.json) {
      io.stdout.write(`${json({ intencoes: rows, proximoCursor: page.nextCursor })}\n`);
      return EXIT.ok;
    }
    const header = ['ID', 'CREATED', 'STATE', 'REASONS', 'TERMINAL', 'PRINTER', 'BYTES', 'REPRINT OF', 'REPRINTS', ...(emails ? ['USER'] : []), 'REFERENCE'];
    io.stdout.write(columns(header, page.jobs.map((j, i) => [
      String(j.id), j.createdAt.toISOString(), j.estado, j.motivos.join(',') || '-', j.terminalId ?? '(template)', j.codigoImpressora, String(j.size),
      j.reprintOf === null ? '-' : String(j.reprintOf), String(j.reprints), ...(emails ? [String(rows[i]!.usuario)] : []), quoted(j.referencia),
    ])));
    if (page.nextCursor) io.stderr.write(`more: bobina jobs list … --cursor ${page.nextCursor}\n`);
    return EXIT.ok;
  }));
}

async function show(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...USER, json: { type: 'boolean' }, ...STORE_OPTIONS }, 1);
  const id = jobId(positionals);
  const { intentionRecord } = await import('../../server/routes/intention-view.js');
  return withJobs(values, async (store, jobs) => {
    const accountId = await accountFor(store, values, id, io);
    if (accountId === undefined) return EXIT.failed;
    const found = await jobs.partner.get(accountId, id);
    if (!found) {
      io.stderr.write(`bobina jobs: no job ${id}${userOf(values) ? ` of ${userOf(values)}` : ''}\n`);
      return EXIT.failed;
    }
    const record = intentionRecord(found.job, found.history);
    if (values.json) {
      io.stdout.write(`${json(record)}\n`);
      return EXIT.ok;
    }
    const j = found.job;
    io.stdout.write([
      `job ${j.id}: ${j.estado}${j.motivos.length ? ` (${j.motivos.join(', ')})` : ''}, status ${j.status}, confirmation ${j.confirmacao}`,
      `  created ${j.createdAt.toISOString()}, terminal ${j.terminalId === null ? '(template job)' : printable(j.terminalId)}, printer ${j.codigoImpressora} (id ${j.impressoraId}), ${j.bytes.length} bytes`,
      `  reference ${quoted(j.referencia)}, attempts ${j.tentativas}, reprint of ${j.reprintOf ?? '-'}, reprints ${j.reprints}`,
      `  diagnostics: ${record.diagnostics.length ? record.diagnostics.map((d) => `${d.severity} ${d.code} at ${d.line}:${d.column}`).join('; ') : 'none'}`,
      '  history:',
      ...record.historico.map((h) => `    ${h.data}  ${h.evento} → ${h.estado}${h.motivos.length ? ` (${h.motivos.join(', ')})` : ''} by ${h.origem}${h.detalhe ? `: ${printable(h.detalhe)}` : ''}`),
    ].join('\n') + '\n');
    return EXIT.ok;
  });
}

/** cancel and start: one use case on one job, and a line saying where it is now. */
const change = (verb: string, act: (jobs: Jobs, accountId: string, id: number) => Promise<{ job: { id: number; estado: string } }>): Subcommand => async (args, io) => {
  const { values, positionals } = parse(args, { ...USER, ...STORE_OPTIONS }, 1);
  const id = jobId(positionals);
  return withJobs(values, async (store, jobs) => {
    const accountId = await accountFor(store, values, id, io);
    if (accountId === undefined) return EXIT.failed;
    return refusable(io, async () => {
      const { job } = await act(jobs, accountId, id);
      io.stdout.write(`job ${job.id} ${verb}: now ${job.estado}\n`);
      return EXIT.ok;
    });
  });
};

async function reprint(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...USER, marcador: { type: 'string' }, ...STORE_OPTIONS }, 1);
  const id = jobId(positionals);
  const { MARCADOR } = await import('../../server/schemas/intentions.js');
  const marcador = values.marcador || undefined;
  if (marcador !== undefined && ([...marcador].length > MARCADOR.maxLength || !new RegExp(MARCADOR.pattern, 'u').test(marcador))) {
    throw new UsageError(`--marcador takes at most ${MARCADOR.maxLength} characters and no control character`);
  }
  const [{ inlineCompiler }, { compileJob }] = await Promise.all([import('../../server/compiler.js'), import('../../server/compile-for.js')]);
  return withJobs(values, async (store, jobs) => {
    const accountId = await accountFor(store, values, id, io);
    if (accountId === undefined) return EXIT.failed;
    return refusable(io, async () => {
      const inserted = await jobs.partner.reprint(accountId, id, { marcador, compile: compileJob(inlineCompiler, store, { accountId }) });
      if (!('answer' in inserted)) throw new Error('a reprint without an Idempotency-Key is never a replay');
      const { job } = inserted.answer;
      io.stdout.write(`job ${job.id} is a reprint of job ${id}: now ${job.estado}\n`);
      return EXIT.ok;
    });
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  list,
  show,
  cancel: change('canceled', (jobs, accountId, id) => jobs.partner.cancel(accountId, id)),
  start: change('started', (jobs, accountId, id) => jobs.partner.start(accountId, id)),
  reprint,
};

export const jobsCommand: Command = {
  name: 'jobs',
  usage: 'bobina jobs list [--user EMAIL] [--estado S] [--terminal ID] [--referencia R] [--limit N] [--cursor C] [--json] | show ID [--user EMAIL] [--json] | cancel ID [--user EMAIL] | start ID [--user EMAIL] | reprint ID [--marcador TEXT] [--user EMAIL]  [--db F | --database-url URL]',
  summary: 'print jobs: list them newest first (one account\'s or all), show one with its history, cancel one nobody holds, start a held or outcome-unknown one, print a counted second copy',
  run: dispatch(SUBCOMMANDS),
};
