// The terminals view (GET /Terminal/GetAll): each terminal online or not, when it was last heard
// from, its printer ready or why not, its queue's depth and its oldest job's age; a page at a time
// (the service's cursor paging: next with proximoCursor, previous with the cursors already seen),
// all of them or only those needing attention (situacao), the choice in the address
// (#terminals?situacao=offline). A terminal of the page that goes offline or whose printer's
// reasons change is announced to screen readers.
import { get } from './api.js';
import { announce, h, syncRows, table } from './dom.js';
import { filterField, submitsTo } from './filters.js';
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

/** The choices of `situacao`, as the service names them. */
const SITUATIONS = [['', 'all terminals'], ['problema', 'offline or printer problem'], ['offline', 'offline'], ['impressora', 'printer problem']] as const;
const FILTERS = ['situacao', 'limite'] as const;
/** A page of the console: enough to see a shop's terminals at once, few enough to draw every 3 s. */
const PAGE = 50;

export function terminalsView(params: URLSearchParams = new URLSearchParams()): View {
  const field = filterField(params, 't');
  const form = h('form', { class: 'filters', 'aria-label': 'Filter terminals', method: 'post' },
    field('situacao', 'Show', h('select', {}, ...SITUATIONS.map(([value, text]) => h('option', { value }, text)))),
    field('limite', 'Per page', h('input', { type: 'number', min: 1, max: 500, inputmode: 'numeric', placeholder: String(PAGE) })),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Apply')));
  submitsTo(form, 'terminals', FILTERS);

  const body = h('tbody');
  const error = errorBox();
  const filtered = Boolean(params.get('situacao'));
  const empty = h('p', { hidden: true }, filtered ? 'No terminal needs attention.' : 'No terminals yet: add one with bobina terminals add.');
  const status = h('p', { class: 'muted', 'data-field': 'page' });
  const prev = h('button', { type: 'button', disabled: true }, 'Previous page');
  const next = h('button', { type: 'button', disabled: true }, 'Next page');
  /** What was announced last, per terminal of the page: announce changes only. */
  const seen = new Map<string, string>();
  /** The cursors of the pages before this one (undefined: the first page). */
  const back: (string | undefined)[] = [];
  let cursor: string | undefined;
  let following: string | null = null;
  const turn = (to: string | undefined) => {
    cursor = to;
    seen.clear();
    void refresh();
  };
  prev.addEventListener('click', () => turn(back.pop()));
  next.addEventListener('click', () => {
    if (!following) return;
    back.push(cursor);
    turn(following);
  });

  const el = h('section', { 'aria-labelledby': 'terminals-title' },
    Object.assign(heading('Terminals'), { id: 'terminals-title' }), form, error, empty,
    table('Terminals and their printers', ['Terminal', 'State', 'Printer', 'Printer checked', 'Last contact', 'Agent', 'Queued', 'Oldest queued'], body),
    h('nav', { class: 'pager', 'aria-label': 'Pages of terminals' }, prev, status, next));

  async function refresh(): Promise<Refreshed> {
    let list: Terminal[];
    // The page asked for: a poll's answer for the page before a turn arrives late and is dropped.
    const asked = cursor;
    try {
      const answer = await get<{ terminais: Terminal[]; proximoCursor?: string | null }>('/Terminal/GetAll', {
        limite: params.get('limite') || PAGE, situacao: params.get('situacao'), cursor: asked,
      });
      if (asked !== cursor) return 'current';
      list = answer.terminais;
      following = answer.proximoCursor ?? null;
      clearError(error);
    } catch (err) {
      if (asked !== cursor) return 'current';
      return showError(error, err, 'The terminal list');
    }
    next.disabled = !following;
    prev.disabled = back.length === 0;
    status.textContent = `Page ${back.length + 1}: ${list.length} terminal${list.length === 1 ? '' : 's'}`;
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
