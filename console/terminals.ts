// The terminals view (GET /Terminal/GetAll): each terminal online or not, when it was last heard
// from, its printer ready or why not, its queue's depth and its oldest job's age. A terminal that
// goes offline or whose printer's reasons change is announced to screen readers.
import { get } from './api.js';
import { announce, h, syncRows, table } from './dom.js';
import { age, reasons, when } from './format.js';
import { clearError, errorBox, heading, showError, type Refreshed, type View } from './view.js';

export interface Terminal {
  terminalId: string;
  online: boolean;
  ultimoContato: string | null;
  versaoAgente: string | null;
  impressora: { pronta: boolean | null; motivos: string[]; verificadoEm: string | null } | null;
  fila: { profundidade: number; maisAntigaEm: string | null; idadeMaisAntigaSegundos: number | null };
}

const printerText = (t: Terminal) =>
  !t.impressora || t.impressora.pronta === null ? 'not reported' : t.impressora.pronta && !t.impressora.motivos.length ? 'ready' : reasons(t.impressora.motivos) || 'not ready';

export function terminalsView(): View {
  const body = h('tbody');
  const error = errorBox();
  const empty = h('p', { hidden: true }, 'No terminals yet: add one with bobina terminals add.');
  const el = h('section', { 'aria-labelledby': 'terminals-title' },
    Object.assign(heading('Terminals'), { id: 'terminals-title' }), error, empty,
    table('Terminals and their printers', ['Terminal', 'State', 'Printer', 'Printer checked', 'Last contact', 'Agent', 'Queued', 'Oldest queued'], body));
  /** What was announced last, per terminal: announce changes only. */
  const seen = new Map<string, string>();

  async function refresh(): Promise<Refreshed> {
    let list: Terminal[];
    try {
      list = (await get<{ terminais: Terminal[] }>('/Terminal/GetAll')).terminais;
      clearError(error);
    } catch (err) {
      return showError(error, err, 'The terminal list');
    }
    empty.hidden = list.length > 0;
    const changes: string[] = [];
    for (const t of list) {
      const said = `${t.online ? 'online' : 'offline'}; printer ${printerText(t)}`;
      const before = seen.get(t.terminalId);
      if (before !== undefined && before !== said) changes.push(`${t.terminalId}: ${said}`);
      seen.set(t.terminalId, said);
    }
    if (changes.length) announce(changes.join('. '));
    syncRows(body, list.map((t) => ({
      key: t.terminalId,
      sig: JSON.stringify([t, Math.floor((t.fila.idadeMaisAntigaSegundos ?? 0) / 5)]),
      build: () => {
        const ready = printerText(t) === 'ready';
        return h('tr', { 'data-terminal': t.terminalId, 'data-online': String(t.online) },
          h('th', { scope: 'row' }, h('a', { href: `#jobs?terminalId=${encodeURIComponent(t.terminalId)}`, title: `Jobs of ${t.terminalId}` }, t.terminalId)),
          h('td', {}, h('span', { class: t.online ? 'badge ok' : 'badge bad', 'data-field': 'online' }, t.online ? 'online' : 'offline')),
          h('td', {}, h('span', { class: ready ? 'badge ok' : 'badge warn', 'data-field': 'printer', 'data-reasons': (t.impressora?.motivos ?? []).join(' ') }, printerText(t))),
          h('td', {}, when(t.impressora?.verificadoEm)),
          h('td', {}, when(t.ultimoContato)),
          h('td', {}, t.versaoAgente ?? '—'),
          h('td', { class: 'num', 'data-field': 'queue' }, t.fila.profundidade),
          h('td', {}, t.fila.profundidade ? age(t.fila.idadeMaisAntigaSegundos) : '—'));
      },
    })));
    return 'current';
  }
  return { el, refresh };
}
