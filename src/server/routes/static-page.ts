// A page built into dist/<name>/ by `npm run build` (the playground, the console), served as the
// files of that folder, by name only, under one Content-Security-Policy; and the library's own
// build as a browser loads it (dist/index.js and the chunks it imports: the one copy of the compiler).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface File {
  type: string;
  body: Buffer;
}

/** This package's dist/ holding a built page, from dist/ (the build) or src/server/routes/ (the tests). */
function distDir(page: string): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist', page, 'index.html'))) return join(dir, 'dist');
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

/**
 * GET /<name> (redirected to /<name>/), /<name>/<file> and /<name>/lib/<file>, public like /docs:
 * the page holds no secret, what it shows comes from the authorised API.
 */
export function servePage(app: FastifyInstance, name: string, csp: string): void {
  const dist = distDir(name);
  const page = dist ? load(join(dist, name), readdirSync(join(dist, name))) : new Map<string, File>();
  const lib = dist ? load(dist, libraryFiles(dist)) : new Map<string, File>();
  const send = (file: File | undefined, reply: FastifyReply) => {
    if (!file) return reply.callNotFound();
    return reply.header('content-type', file.type).header('content-security-policy', csp).header('cache-control', 'no-cache').send(file.body);
  };
  app.get(`/${name}`, { schema: { hide: true } }, async (_request, reply) => reply.redirect(`/${name}/`));
  app.get(`/${name}/`, { schema: { hide: true } }, async (_request, reply) => send(page.get('index.html'), reply));
  app.get<{ Params: { file: string } }>(`/${name}/:file`, { schema: { hide: true } }, async (request, reply) => send(page.get(request.params.file), reply));
  app.get<{ Params: { file: string } }>(`/${name}/lib/:file`, { schema: { hide: true } }, async (request, reply) => send(lib.get(request.params.file), reply));
}
