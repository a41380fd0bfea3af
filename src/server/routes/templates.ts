// GET /ImpressoraTemplate/GetTemplates (spec §4.2): the seven templates, straight from the
// compiler's profile list.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { listProfiles } from '../../index.js';
import { formatData } from '../dates.js';
import { templatesSchema } from '../schemas/intentions.js';

export async function templateRoutes(app: FastifyInstance) {
  const templates = listProfiles().map((p) => ({ id: p.id, nome: p.nome, codigoImpressora: p.code, isGeneric: p.isGeneric }));
  app.withTypeProvider<TypeBoxTypeProvider>().get('/ImpressoraTemplate/GetTemplates', { schema: templatesSchema }, async () => ({
    data: formatData(new Date()),
    impressoraTemplates: templates,
  }));
}
