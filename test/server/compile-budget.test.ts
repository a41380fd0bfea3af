// The compile pool's time budget, on real worker threads: a compile that runs past it is ended
// with its thread, the Insert is answered 422 compile-timeout, and the pool compiles the next job.
// The worker is the built compile task, except that the content "spin" never returns once compiled.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CompileTimeout, workerCompiler, type Compiler } from '../../src/server/compiler.js';
import { harness, login, type Harness } from './helpers.js';

const SPIN = new URL('./children/spin-worker.mjs', import.meta.url);
const BUILT = new URL('../../dist/compile-worker.js', import.meta.url);

let compiler: Compiler | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  await compiler?.close();
  h = undefined;
  compiler = undefined;
});

describe('a compile past its time budget', () => {
  it('is ended, thread and all, and the one thread left for the pool compiles the next job', async () => {
    expect(existsSync(BUILT), 'dist/compile-worker.js is missing: run "npm run build"').toBe(true);
    // One thread: had the spinning thread been left running, the next compile would never start.
    compiler = workerCompiler({ filename: SPIN, threads: 1, budgetMs: 300 });
    const err = await compiler.run({ conteudo: 'spin', printer: 5 }, 'acct-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompileTimeout);
    expect((err as CompileTimeout).budgetMs).toBe(300);
    const next = await compiler.run({ conteudo: 'Olá', printer: 5 }, 'acct-1');
    expect(Buffer.from(next.bytes).toString('hex')).toBe('1b401b74024f6ca00a');
  }, 30_000);

  it('answers Insert with 422 compile-timeout, a JSON problem, and stores nothing', async () => {
    compiler = workerCompiler({ filename: SPIN, threads: 1, budgetMs: 300 });
    h = await harness({ compiler });
    const { access_token: key } = await login(h.app);
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'spin', impressoraId: 5 } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'compile-timeout', budgetMs: 300, message: 'The content took longer than 300 ms to compile; nothing was stored' });
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
    const after = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'Olá', impressoraId: 5 } });
    expect(after.statusCode).toBe(200);
    // The job that timed out has no id: the next one is the first stored.
    expect(after.json().intencaoImpressao.id).toBe(1);
  }, 30_000);
});
