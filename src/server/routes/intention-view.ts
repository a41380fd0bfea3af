// How a stored print intention is shown: whole to the partner (the Insert and GetById response), as
// a summary to a terminal's client (the Reportar answer, ListarRetidas), and as a row of GetAll.
import type { Static } from 'typebox';
import type { Diagnostic } from '../../index.js';
import { formatData } from '../dates.js';
import type { IntencaoLinha, IntencaoResumo, IntentionResponse } from '../schemas/intentions.js';
import type { AnsweredJob, HistoryEntry, InsertAnswer, Intention, IntentionSummary } from '../store/types.js';

export const diagnosticView = (d: Diagnostic) => ({
  code: d.code,
  severity: d.severity,
  message: d.message,
  line: d.span.start.line,
  column: d.span.start.column,
  span: d.span,
});

export const historyView = (h: HistoryEntry) => ({
  estado: h.estado, motivos: h.motivos, origem: h.origem, data: formatData(h.at), evento: h.evento, detalhe: h.detalhe,
});

/** The size, creation and delivery state of a job, in the order both the record and the summary show them. */
const deliveryState = (i: Intention | AnsweredJob | IntentionSummary) => ({
  tamanhoBytes: 'size' in i ? i.size : i.bytes.length,
  dataCriacao: formatData(i.createdAt),
  estado: i.estado,
  motivos: i.motivos,
  tentativas: i.tentativas,
  confirmacao: i.confirmacao,
});

/** The record inside the answer: the spec's fields, then the delivery state (new fields only ever appended). */
export function intentionRecord(i: Intention | AnsweredJob, history: readonly HistoryEntry[]): IntentionResponse['intencaoImpressao'] {
  return {
    id: i.id,
    referencia: i.referencia,
    conteudo: i.conteudo,
    terminalId: i.terminalId,
    impressoraId: i.impressoraId,
    codigoImpressora: i.codigoImpressora,
    aguardarClienteIniciarImpressao: i.aguardarClienteIniciarImpressao,
    status: i.status,
    diagnostics: i.diagnostics.map(diagnosticView),
    ...deliveryState(i),
    historico: history.map(historyView),
    reportesIgnorados: i.ignoredReports,
    reimpressaoDe: i.reprintOf,
    reimpressoes: i.reprints,
  };
}

/** A job without its content, diagnostics and history (the Reportar answer, ListarRetidas' items). */
export function intentionSummary(i: Intention | IntentionSummary): Static<typeof IntencaoResumo> {
  return {
    id: i.id,
    referencia: i.referencia,
    terminalId: i.terminalId,
    impressoraId: i.impressoraId,
    codigoImpressora: i.codigoImpressora,
    aguardarClienteIniciarImpressao: i.aguardarClienteIniciarImpressao,
    status: i.status,
    ...deliveryState(i),
    reportesIgnorados: i.ignoredReports,
  };
}

/** A row of GetAll: the summary, then its reprint links. */
export function intentionRow(i: IntentionSummary): Static<typeof IntencaoLinha> {
  return { ...intentionSummary(i), reimpressaoDe: i.reprintOf, reimpressoes: i.reprints };
}

/** The whole job, answered now, or (an Insert's answer) at the time it names. */
export function intentionView({ job, history, at = new Date() }: { job: Intention; history: readonly HistoryEntry[]; at?: Date } | InsertAnswer): IntentionResponse {
  return { data: formatData(at), intencaoImpressao: intentionRecord(job, history) };
}
