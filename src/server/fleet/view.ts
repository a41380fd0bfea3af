// A terminal's health as the API (GET /Terminal/GetAll, GetById) and `bobina terminals status`
// show it: online by the offline rule at `now`, the printer's last word, the queue and its oldest job.
import { formatData } from '../dates.js';
import type { TerminalHealth } from '../store/types.js';
import { isOnline, type FleetSettings } from './settings.js';

export interface TerminalHealthView {
  terminalId: string;
  online: boolean;
  ultimoContato: string | null;
  versaoAgente: string | null;
  impressora: { pronta: boolean | null; motivos: string[]; verificadoEm: string | null };
  fila: { profundidade: number; maisAntigaEm: string | null; idadeMaisAntigaSegundos: number | null };
}

/** `format` writes the dates (the API: the spec's form, formatData; the CLI's --json: ISO 8601). */
export function healthView(h: TerminalHealth, now: Date, settings: FleetSettings, format: (d: Date) => string = formatData): TerminalHealthView {
  const at = (d: Date | null) => (d === null ? null : format(d));
  const oldest = h.queue.oldestAt;
  return {
    terminalId: h.terminalId,
    online: isOnline(h.lastSeenAt, now, settings),
    ultimoContato: at(h.lastSeenAt),
    versaoAgente: h.agentVersion,
    impressora: { pronta: h.printer.ready, motivos: h.printer.reasons ?? [], verificadoEm: at(h.printer.checkedAt) },
    fila: {
      profundidade: h.queue.depth,
      maisAntigaEm: at(oldest),
      idadeMaisAntigaSegundos: oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)),
    },
  };
}
