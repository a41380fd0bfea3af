// The fleet view for partners (their key or token): the account's terminals with their health.
//   GET /Terminal/GetAll                 every terminal of the account
//   GET /Terminal/GetById?terminalId=X   one (404 terminal-not-found when the account has none of that id)
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatData } from '../dates.js';
import { Problem } from '../errors.js';
import type { Fleet } from '../fleet/fleet.js';
import { healthView } from '../fleet/view.js';
import { terminalsGetAllSchema, terminalsGetByIdSchema } from '../schemas/terminals.js';

export async function terminalHealthRoutes(app: FastifyInstance, { fleet }: { fleet: Fleet }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get('/Terminal/GetAll', { schema: terminalsGetAllSchema }, async (request) => {
    const now = new Date();
    const terminals = await fleet.health(request.principal.accountId);
    return { data: formatData(now), terminais: terminals.map((t) => healthView(t, now, fleet.settings)) };
  });

  api.get('/Terminal/GetById', { schema: terminalsGetByIdSchema }, async (request) => {
    const now = new Date();
    const { terminalId } = request.query;
    const [terminal] = await fleet.health(request.principal.accountId, terminalId);
    if (!terminal) throw new Problem('terminal-not-found', { terminalId });
    return { data: formatData(now), terminal: healthView(terminal, now, fleet.settings) };
  });
}
