// GET /playground: the playground page (dist/playground/, from `npm run build`), public like /docs,
// and under /playground/lib/ the library's own build as a browser loads it (dist/index.js and the
// chunks it imports: the one copy of the compiler). Files are served by name from those lists only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page runs only its own scripts; the inline <style> of the SVG preview needs inline styles; no frame may show it. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'none'; frame-ancestors 'none'";

interface File {
  type: string;
  body: Buffer;
}

/** This package's dist/, from dist/ (the build) or src/server/routes/ (the tests). */
function distDir(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist', 'playground', 'index.html'))) return join(dir, 'dist');
  }
  return undefined;
}

/** dist/index.js and every chunk it imports, transitively (what a browser loads for `import 'bobina'`). */
function libraryFiles(dist: string): string[] {
  const files = new Set<string>();
  const visit = (name: string) => {
    if (files.has(name) || !existsSync(join(dist, name))) return;
    files.add(name);
    for (const m of readFileSync(join(dist, name), 'utf8').matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) visit(m[1]!);
  };
  visit('index.js');
  return [...files];
}

function load(dir: string, names: readonly string[]): Map<string, File> {
  const files = new Map<string, File>();
  for (const name of names) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type) files.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  return files;
}

export async function playgroundRoutes(app: FastifyInstance) {
  const dist = distDir();
  const page = dist ? load(join(dist, 'playground'), readdirSync(join(dist, 'playground'))) : new Map<string, File>();
  const lib = dist ? load(dist, libraryFiles(dist)) : new Map<string, File>();
  const send = (file: File | undefined, reply: FastifyReply) => {
    if (!file) return reply.callNotFound();
    return reply.header('content-type', file.type).header('content-security-policy', CSP).header('cache-control', 'no-cache').send(file.body);
  };
  app.get('/playground', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/playground/'));
  app.get('/playground/', { schema: { hide: true } }, async (_request, reply) => send(page.get('index.html'), reply));
  app.get<{ Params: { file: string } }>('/playground/:file', { schema: { hide: true } }, async (request, reply) => send(page.get(request.params.file), reply));
  app.get<{ Params: { file: string } }>('/playground/lib/:file', { schema: { hide: true } }, async (request, reply) => send(lib.get(request.params.file), reply));
}
