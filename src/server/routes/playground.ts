// GET /playground: the playground page (dist/playground/, from `npm run build`), public like /docs,
// and under /playground/lib/ the library's own build (static-page.ts).
import type { FastifyInstance } from 'fastify';
import { servePage } from './static-page.js';

/** The page runs only its own scripts; the inline <style> of the SVG preview needs inline styles; no frame may show it. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'none'; frame-ancestors 'none'";

export async function playgroundRoutes(app: FastifyInstance) {
  servePage(app, 'playground', CSP);
}
