// GET /console serves the operator console's static files (dist/console/, built by npm test's
// build) under a policy that allows no inline code, and nothing else from that directory or beyond
// it; the page itself holds no copy of the compiler (it imports lib/ only for a preview).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../src/server/routes/console.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await app.register(consoleRoutes);
  await app.ready();
});
afterAll(() => app.close());

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe('GET /console', () => {
  it('redirects to the page, served under a policy with no inline script or style, this origin only', async () => {
    expect((await app.inject('/console')).headers.location).toBe('/console/');
    const page = await app.inject('/console/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).not.toMatch(/unsafe-|https?:|\*/);
    expect(directives(csp)).toMatchObject({
      'default-src': ["'none'"], 'script-src': ["'self'"], 'script-src-attr': ["'none'"], 'style-src': ["'self'"], 'connect-src': ["'self'"],
      'img-src': ["'self'", 'blob:'], 'frame-ancestors': ["'none'"], 'form-action': ["'none'"],
      'require-trusted-types-for': ["'script'"], 'trusted-types': ["'none'"],
    });
    expect(page.body).toContain('<script type="module" src="console.js"></script>');
    // No inline script, no style attribute, no event-handler attribute in the page.
    expect(page.body).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=/i);
  });

  it('serves a small page script that imports the library only on demand, and its style sheet', async () => {
    const script = await app.inject('/console/console.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('import("./lib/index.js")');
    expect(script.body).not.toMatch(/from"\.\/lib\/index\.js"/);
    expect(script.body).not.toContain('has no partial cut'); // the compiler is not copied in
    expect(script.body).not.toMatch(/localStorage|sessionStorage|document\.cookie/);
    expect(script.body.length).toBeLessThan(40_000);
    expect((await app.inject('/console/style.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    // The page's icon (its <link rel="icon">): no browser then asks for /favicon.ico, a 404 on every visit.
    expect((await app.inject('/console/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
    expect((await app.inject('/console/lib/index.js')).statusCode).toBe(200);
  });

  it.each(['/console/nope.js', '/console/..%2Fpackage.json', '/console/%2E%2E%2F%2E%2E%2Fpackage.json', '/console/lib/cli.js', '/console/lib/..%2Fpackage.json', '/console/tsconfig.json', '/console/main.ts'])('answers 404 for %s', async (url) => {
    expect((await app.inject(url)).statusCode).toBe(404);
  });
});
