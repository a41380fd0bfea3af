// How a stored print intention is shown to the partner (the Insert and GetById response).
import type { Diagnostic } from '../../index.js';
import { formatData } from '../dates.js';
import type { IntentionResponse } from '../schemas.js';
import type { Intention } from '../store/types.js';

export const diagnosticView = (d: Diagnostic) => ({
  code: d.code,
  severity: d.severity,
  message: d.message,
  line: d.span.start.line,
  column: d.span.start.column,
  span: d.span,
});

export function intentionView(i: Intention): IntentionResponse {
  return {
    data: formatData(new Date()),
    intencaoImpressao: {
      id: i.id,
      referencia: i.referencia,
      conteudo: i.conteudo,
      terminalId: i.terminalId,
      impressoraId: i.impressoraId,
      codigoImpressora: i.codigoImpressora,
      aguardarClienteIniciarImpressao: i.aguardarClienteIniciarImpressao,
      status: i.status,
      diagnostics: i.diagnostics.map(diagnosticView),
      tamanhoBytes: i.bytes.length,
      dataCriacao: formatData(i.createdAt),
    },
  };
}
