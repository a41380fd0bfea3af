// Starting a job by hand, one rule for whoever asks: the terminal's client
// (/TerminalImpressao/Iniciar) and the partner (/IntencaoImpressao/Iniciar, `bobina jobs start`).
// A held job (aguardarClienteIniciarImpressao) is queued; one stopped with an unknown outcome is
// queued to print again (`reprint`: the client's journal lets it through), unless it was leased
// MAX_DELIVERIES times already (lifecycle.ts's requeueRefusal). Any other state is 409
// job-not-startable: the lifecycle table's `start` row decides which.
import { Problem } from '../errors.js';
import type { Intention, Origin } from '../store/types.js';
import type { JobContext } from './context.js';
import { allows, phaseOf, requeueRefusal, transition, type JobWithHistory } from './lifecycle.js';

/** What the history row says: a start, or a start again after an unknown outcome. */
export interface StartWords {
  start: string;
  again: string;
}

export async function startJob(c: JobContext, found: Intention, origem: Origin, words: StartWords): Promise<JobWithHistory> {
  const id = found.id;
  const reprint = phaseOf(found) === 'unknown-outcome';
  if (!allows(found, 'start')) throw new Problem('job-not-startable', { intencaoImpressaoId: id, estado: found.estado });
  const leasedOut = requeueRefusal(found);
  if (leasedOut) throw new Problem('job-not-startable', { intencaoImpressaoId: id, estado: found.estado, tentativas: found.tentativas }, leasedOut);
  const result = await c.store.transaction(async (tx) => {
    const changed = await transition(tx, c.sink, found, 'start', { origem, at: new Date(), motivos: [], detalhe: reprint ? words.again : words.start }, reprint ? { reprint: true } : {});
    if (!changed) throw new Problem('job-not-startable', { intencaoImpressaoId: id, estado: found.estado });
    return { job: changed, history: await tx.intentions.history(found.accountId, id) };
  });
  c.queued(result.job);
  return result;
}
