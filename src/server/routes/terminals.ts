// The fleet view for partners (their key or token): the account's terminals with their health.
//   GET /Terminal/GetAll                 the account's terminals, a page at a time (limite, cursor), optionally only those needing attention (situacao)
//   GET /Terminal/GetById?terminalId=X   one (404 terminal-not-found when the account has none of that id)
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatData } from '../dates.js';
import { Problem } from '../errors.js';
import { pageSize } from '../paging.js';
import type { Fleet } from '../fleet/fleet.js';
import { healthView } from '../fleet/view.js';
import { decodeTerminalCursor, encodeTerminalCursor } from '../fleet/page-cursor.js';
import { TERMINAL_PAGE, terminalsGetAllSchema, terminalsGetByIdSchema, type SITUACOES } from '../schemas/terminals.js';

/** GetAll's `situacao` as the store's filter. */
const ONLY: Readonly<Record<(typeof SITUACOES)[number], 'offline' | 'printer' | 'problem'>> = { offline: 'offline', impressora: 'printer', problema: 'problem' };

export async function terminalHealthRoutes(app: FastifyInstance, { fleet }: { fleet: Fleet }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/Terminal/GetAll', { schema: terminalsGetAllSchema }, async (request) => {
    const now = new Date();
    const q = request.query;
    const limit = pageSize(q.limite, TERMINAL_PAGE);
    // One more than the page: whether there is a next one, without a second query.
    const terminals = await fleet.page(request.principal.accountId, {
      limit: limit + 1, now, ...(q.cursor === undefined ? {} : { after: decodeTerminalCursor(q.cursor) }), ...(q.situacao === undefined ? {} : { only: ONLY[q.situacao] }),
    });
    const page = terminals.slice(0, limit);
    const proximoCursor = terminals.length > limit ? encodeTerminalCursor(page.at(-1)!.terminalId) : null;
    return { data: formatData(now), terminais: page.map((t) => healthView(t, now, fleet.settings)), proximoCursor };
  });

  api.get('/Terminal/GetById', { schema: terminalsGetByIdSchema }, async (request) => {
    const now = new Date();
    const { terminalId } = request.query;
    const [terminal] = await fleet.health(request.principal.accountId, terminalId);
    if (!terminal) throw new Problem('terminal-not-found', { terminalId });
    return { data: formatData(now), terminal: healthView(terminal, now, fleet.settings) };
  });
}
