// GET /console: the operator console (console/, built into dist/console/ by `npm run build`), and
// under /console/lib/ the library's build, which the page imports only to draw a job's preview.
// The page is public like /docs; everything it shows or does goes through the partner API with
// the token of the person who logged in (kept in the page's memory), so it adds no privilege.
import type { FastifyInstance } from 'fastify';
import { CONSOLE_CSP } from '../security-headers.js';
import { servePage } from './static-page.js';

export async function consoleRoutes(app: FastifyInstance) {
  servePage(app, 'console', CONSOLE_CSP);
}
