// GET /playground serves the playground's static files (dist/playground/, built by npm test's
// build) and nothing else from that directory or beyond it.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playgroundRoutes } from '../../src/server/routes/playground.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(playgroundRoutes);
  await app.ready();
});
afterAll(() => app.close());

describe('GET /playground', () => {
  it('redirects to the page, which loads its script and style', async () => {
    expect((await app.inject('/playground')).headers.location).toBe('/playground/');
    const page = await app.inject('/playground/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<script type="module" src="playground.js"></script>');
  });

  it('serves the page script, its compile worker, which alone imports the library from lib/, and its style sheet', async () => {
    const script = await app.inject('/playground/playground.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('new URL("./worker.js",import.meta.url)');
    expect(script.body).not.toMatch(/lib\/index\.js/); // the page itself never loads the compiler
    const worker = await app.inject('/playground/worker.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['content-security-policy']).toContain("script-src 'self'");
    expect(worker.body).toMatch(/from"\.\/lib\/index\.js"/);
    for (const body of [script.body, worker.body]) expect(body).not.toContain('has no partial cut'); // the compiler is not copied into either
    expect((await app.inject('/playground/style.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    // The page's icon (its <link rel="icon">): no browser then asks for /favicon.ico, a 404 on every visit.
    expect((await app.inject('/playground/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('serves the library as the browser loads it: dist/index.js and the chunks it imports', async () => {
    const index = await app.inject('/playground/lib/index.js');
    expect(index.statusCode).toBe(200);
    const chunks = [...index.body.matchAll(/from"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
    const bodies = await Promise.all(chunks.map((c) => app.inject(`/playground/lib/${c}`)));
    expect(bodies.map((b) => b.statusCode)).toEqual(chunks.map(() => 200));
    expect(bodies.some((b) => b.body.includes('has no partial cut: a full cut is sent instead'))).toBe(true);
  });

  it.each(['/playground/nope.js', '/playground/..%2Fpackage.json', '/playground/%2E%2E%2F%2E%2E%2Fpackage.json', '/playground/lib/cli.js', '/playground/lib/..%2Fpackage.json', '/playground/lib/index.d.ts'])('answers 404 for %s', async (url) => {
    expect((await app.inject(url)).statusCode).toBe(404);
  });
});
