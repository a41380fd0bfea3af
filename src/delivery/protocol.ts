// The terminal client protocol, defined once: the wire objects (TypeBox schemas, the routes'
// single source) and their mapping to what the delivery loop works with. The service's routes
// (src/server/routes/terminal.ts), the agent's HTTP link (http-link.ts) and the in-process link of
// direct delivery (src/server/workers/direct-delivery.ts) all map through here.
import { Type, type Static } from 'typebox';
import { JOB_ID_MAX } from './job-id.js';
import { isPrinterReason } from './reasons.js';

// ---- what the delivery loop works with

/** What a client reports of a job it holds (Reportar's `estado`). */
export const ReportStateJson = Type.Union([Type.Literal('printing'), Type.Literal('completed'), Type.Literal('stopped'), Type.Literal('failed')]);
export type ReportState = Static<typeof ReportStateJson>;

/** A job as the service hands it to a terminal's client. */
export interface TerminalOffer {
  id: number;
  token: string;
  codigoImpressora: string;
  bytes: Uint8Array;
  /** Started again after an unknown outcome: print even if the journal saw it start. */
  reprint: boolean;
  tentativas: number;
  /** How long the lease runs from the offer (and from each renewal); renewed every third of it. */
  leaseMs?: number;
}

/** A client's report on a job it holds, with the job's delivery token. */
export interface TerminalReport {
  id: number;
  token: string;
  estado: ReportState;
  motivos?: string[];
  confirmacao?: 'sent' | 'printer';
  detalhe?: string;
}

/** The terminal as the service says it is now (what its client needs besides jobs). */
export interface TerminalState {
  /** The code of the printer linked to the terminal (null: none): the dialect the device speaks. */
  codigoImpressora: string | null;
  /** The terminal's jobs stopped on its printer, waiting for it to clear (0: nothing waits for it). */
  parados: number;
}

/** What a client says of its printer, from the status read it already does (before a job, while idle). */
export interface PrinterHealth {
  /** No reason that stops a job. */
  ready: boolean;
  reasons: string[];
}

/** What a client says of itself on every poll and heartbeat: its printer's state (when it has read one) and its version. */
export interface ClientHealth {
  printer?: PrinterHealth;
  agentVersion: string;
}

/** The terminal as the service sends it (TerminalStateJson): its client's state and the template id. */
export interface TerminalView extends TerminalState {
  impressoraId: number | null;
}

/** A leased job as the service holds it: what an offer is made of. */
export interface OfferedJob {
  id: number;
  referencia: string | null;
  codigoImpressora: string;
  impressoraId: number;
  bytes: Uint8Array;
  reprint: boolean;
  tentativas: number;
}

// ---- the wire

/** A job's id (src/delivery/job-id.ts): an integer from 0 to 999,999,999,999,999, as in a query. */
export const JobIdJson = Type.Integer({ minimum: 0, maximum: JOB_ID_MAX });

/** ObterProxima's job. */
export const TrabalhoJson = Type.Object({
  intencaoImpressaoId: JobIdJson,
  referencia: Type.Union([Type.String(), Type.Null()]),
  tokenEntrega: Type.String({ description: 'Delivery token of this lease: every report carries it; a report with an older token is recorded and ignored' }),
  codigoImpressora: Type.String({ description: 'The template the bytes were compiled for (its status queries too)' }),
  impressoraId: Type.Integer(),
  bytes: Type.String({ description: 'The compiled ESC/POS bytes, base64' }),
  tamanhoBytes: Type.Integer(),
  tentativas: Type.Integer({ description: 'This is attempt number N' }),
  reimprimir: Type.Boolean({ description: 'Started again after an unknown outcome: print even if your journal saw it start' }),
  prazoSegundos: Type.Number({ description: 'Seconds until the lease runs out: renew it (Renovar) every prazoSegundos / 3 while delivering' }),
});
export type TrabalhoJson = Static<typeof TrabalhoJson>;

/** ObterProxima's `terminal`. */
export const TerminalStateJson = Type.Object({
  impressoraId: Type.Union([Type.Integer(), Type.Null()], { description: 'The template of the printer linked to the terminal now (null: none)' }),
  codigoImpressora: Type.Union([Type.String(), Type.Null()], { description: "Its code: the dialect to ask the printer's status in" }),
  parados: Type.Integer({ description: "The terminal's jobs stopped on its printer, waiting for it to clear (0: nothing waits for the printer)" }),
}, { description: 'The terminal as it is now (its printer may have been changed since a job was compiled)' });
export type TerminalStateJson = Static<typeof TerminalStateJson>;

/**
 * A client's free text (Sinal's and ObterProxima's versaoAgente, Reportar's detalhe): any character
 * but a lone surrogate, which has no UTF-8 (PostgreSQL would store U+FFFD, SQLite other bytes), so
 * what was accepted would not be what GetById, GetAll and the CLI show. Refused by the route's
 * validation (400 invalid-request) as any other bad field; a surrogate pair is a character and passes.
 */
const FreeText = (maxLength: number) => Type.String({ maxLength, pattern: '^\\P{Cs}*$' });

/** A reason's word on the wire (Reportar's `motivos` and the printer's). */
const Motivo = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$' });

/** Reportar's body (fields the protocol does not know are removed by the route's validation). */
export const ReportJson = Type.Object({
  intencaoImpressaoId: JobIdJson,
  tokenEntrega: Type.String({ maxLength: 200 }),
  estado: ReportStateJson,
  motivos: Type.Optional(Type.Array(Motivo, { maxItems: 16 })),
  confirmacao: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('printer')])),
  detalhe: Type.Optional(FreeText(500)),
}, { additionalProperties: false });
export type ReportJson = Static<typeof ReportJson>;

/** The printer's state as a client reports it (Sinal, ObterProxima). */
export const PrinterStatusJson = Type.Object({
  pronta: Type.Boolean({ description: 'No reason that stops a job: the printer takes one now' }),
  motivos: Type.Array(Motivo, { maxItems: 16, description: 'media-empty, cover-open, media-low, other, offline (src/delivery/reasons.ts)' }),
}, { additionalProperties: false });
export type PrinterStatusJson = Static<typeof PrinterStatusJson>;

/** The heartbeat interval the service expects, in ObterProxima's and Sinal's answers. */
export const IntervaloJson = Type.Number({
  description: 'The heartbeat interval the service expects, in seconds: send Sinal at least this often while idle (bobina agent follows it when it is shorter than its own --heartbeat)',
});

/** Sinal's body: the heartbeat a client sends at least every N seconds while idle (agent --heartbeat, default 15). */
export const SignalJson = Type.Object({
  impressora: Type.Optional(Type.Union([PrinterStatusJson], {
    description: 'Left out only by a client that could not ask its printer yet (a terminal without a linked printer, before its first job)',
  })),
  versaoAgente: FreeText(100),
}, { additionalProperties: false });
export type SignalJson = Static<typeof SignalJson>;

/** ObterProxima's optional body: the same as a heartbeat says, with the poll (a client that sends none is heard all the same). */
export const PollJson = Type.Union([Type.Object({
  impressora: Type.Optional(PrinterStatusJson),
  versaoAgente: Type.Optional(FreeText(100)),
}, { additionalProperties: false }), Type.Null()]);
export type PollJson = Static<typeof PollJson>;

/** Renovar's body. */
export const RenewJson = Type.Object({
  intencaoImpressaoId: JobIdJson,
  tokenEntrega: Type.String({ maxLength: 200 }),
}, { additionalProperties: false });
export type RenewJson = Static<typeof RenewJson>;

// ---- the mapping, both ways

/** A job and its delivery token as the client is handed it, the lease running `leaseMs`. */
export function offerOf(job: Omit<OfferedJob, 'referencia' | 'impressoraId'>, token: string, leaseMs: number): TerminalOffer {
  return { id: job.id, token, codigoImpressora: job.codigoImpressora, bytes: job.bytes, reprint: job.reprint, tentativas: job.tentativas, leaseMs };
}

export function toTrabalho(job: OfferedJob, token: string, leaseMs: number): TrabalhoJson {
  return {
    intencaoImpressaoId: job.id, referencia: job.referencia, tokenEntrega: token, codigoImpressora: job.codigoImpressora,
    impressoraId: job.impressoraId, bytes: Buffer.from(job.bytes).toString('base64'), tamanhoBytes: job.bytes.length,
    tentativas: job.tentativas, reimprimir: job.reprint, prazoSegundos: leaseMs / 1000,
  };
}

/** The offer in a Trabalho (a service that does not say prazoSegundos leaves leaseMs to the client's default). */
export function fromTrabalho(t: Omit<TrabalhoJson, 'prazoSegundos'> & { prazoSegundos?: number }): TerminalOffer {
  return {
    id: t.intencaoImpressaoId, token: t.tokenEntrega, codigoImpressora: t.codigoImpressora,
    bytes: new Uint8Array(Buffer.from(t.bytes, 'base64')), reprint: t.reimprimir, tentativas: t.tentativas,
    ...(typeof t.prazoSegundos === 'number' && t.prazoSegundos > 0 ? { leaseMs: t.prazoSegundos * 1000 } : {}),
  };
}

/** What the client keeps of the terminal the service describes. */
export function terminalStateOf(view: TerminalState): TerminalState {
  return { codigoImpressora: view.codigoImpressora, parados: view.parados };
}

/** A report's optional fields that it has (an absent or empty one is not sent). */
const optionals = (r: Pick<TerminalReport, 'motivos' | 'confirmacao' | 'detalhe'>) => ({
  ...(r.motivos ? { motivos: r.motivos } : {}), ...(r.confirmacao ? { confirmacao: r.confirmacao } : {}), ...(r.detalhe ? { detalhe: r.detalhe } : {}),
});

export const toReportJson = (r: TerminalReport): ReportJson => ({ intencaoImpressaoId: r.id, tokenEntrega: r.token, estado: r.estado, ...optionals(r) });

export const fromReportJson = (b: ReportJson): TerminalReport => ({ id: b.intencaoImpressaoId, token: b.tokenEntrega, estado: b.estado, ...optionals(b) });

/** Who a report's reasons come from: the printer when it confirmed or gave a reason of its own, else the client. */
export function reportOrigin(r: Pick<TerminalReport, 'confirmacao'>, motivos: readonly string[]): 'printer' | 'client' {
  return r.confirmacao === 'printer' || motivos.some(isPrinterReason) ? 'printer' : 'client';
}

const printerJson = (p: PrinterHealth): PrinterStatusJson => ({ pronta: p.ready, motivos: p.reasons });
const printerOf = (p: PrinterStatusJson): PrinterHealth => ({ ready: p.pronta, reasons: [...new Set(p.motivos)] });

export const toSignalJson = (h: ClientHealth): SignalJson => ({ ...(h.printer ? { impressora: printerJson(h.printer) } : {}), versaoAgente: h.agentVersion });
export const fromSignalJson = (b: SignalJson): ClientHealth => ({ ...(b.impressora ? { printer: printerOf(b.impressora) } : {}), agentVersion: b.versaoAgente });

/** ObterProxima's body for what the client knows (its printer's state only once it has read one). */
export const toPollJson = (h: ClientHealth): NonNullable<PollJson> => ({ ...(h.printer ? { impressora: printerJson(h.printer) } : {}), versaoAgente: h.agentVersion });
export const fromPollJson = (b: PollJson | undefined): Partial<ClientHealth> => ({
  ...(b?.impressora ? { printer: printerOf(b.impressora) } : {}), ...(b?.versaoAgente ? { agentVersion: b.versaoAgente } : {}),
});

export const toRenewJson = (id: number, token: string): RenewJson => ({ intencaoImpressaoId: id, tokenEntrega: token });
export const fromRenewJson = (b: RenewJson) => ({ id: b.intencaoImpressaoId, token: b.tokenEntrega });

export const toIntervalo = (heartbeatMs: number) => heartbeatMs / 1000;
/** The interval an answer asks for, in ms (not a positive number: none; a client bounds it, Heartbeat.follow). */
export const heartbeatOf = (intervaloSegundos: unknown): number | undefined =>
  typeof intervaloSegundos === 'number' && intervaloSegundos > 0 && Number.isFinite(intervaloSegundos) ? intervaloSegundos * 1000 : undefined;

/** The longest a client may wait for its next job in one request (ObterProxima's `espera`, 60 s). */
export const MAX_WAIT_MS = 60_000;

/** ObterProxima's `espera` for a wait of `waitMs` (seconds, at most MAX_WAIT_MS, up to 3 decimals). */
export function esperaOf(waitMs: number): string {
  return Math.max(0, Math.min(MAX_WAIT_MS, waitMs) / 1000).toFixed(3).replace(/\.?0+$/, '') || '0';
}
