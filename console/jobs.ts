// The job list (GET /IntencaoImpressao/GetAll): the filters of the API (estado, terminalId,
// referencia, desde, ate, limite) in a form whose values live in the address (#jobs?estado=held, so
// back and forward work; the dates typed in the service's zone, as every time is shown), and cursor paging: next with the answer's proximoCursor, previous with
// the cursors already seen. Light rows; a row's id opens the job.
import { get } from './api.js';
import { h, syncRows, table } from './dom.js';
import { filterField, submitsTo } from './filters.js';
import { instant, reasons, serverZoneKnown, when, zoneLabel } from './format.js';
import { clearError, errorBox, heading, showError, type Refreshed, type View } from './view.js';

export interface JobRow {
  id: number;
  referencia: string | null;
  terminalId: string | null;
  codigoImpressora: string;
  status: string;
  estado: string;
  motivos: string[];
  tentativas: number;
  dataCriacao: string;
  tamanhoBytes: number;
  reimpressaoDe?: number | null;
  reimpressoes?: number;
}

export const STATES = ['held', 'queued', 'acquired', 'printing', 'completed', 'stopped', 'failed', 'canceled', 'expired'] as const;

const FILTERS = ['estado', 'terminalId', 'referencia', 'desde', 'ate', 'limite'] as const;

export function jobsView(params: URLSearchParams): View {
  const field = filterField(params, 'f');
  const form = h('form', { class: 'filters', 'aria-label': 'Filter jobs', method: 'post' },
    field('estado', 'State', h('select', {}, h('option', { value: '' }, 'any'), ...STATES.map((s) => h('option', { value: s }, s)))),
    field('terminalId', 'Terminal', h('input', { type: 'text', autocomplete: 'off' })),
    field('referencia', 'Reference', h('input', { type: 'text', autocomplete: 'off' })),
    field('desde', 'Created from', h('input', { type: 'datetime-local', step: 1 })),
    field('ate', 'Created until', h('input', { type: 'datetime-local', step: 1 })),
    field('limite', 'Per page', h('input', { type: 'number', min: 1, max: 500, inputmode: 'numeric', placeholder: '50' })),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Apply'), h('button', { type: 'reset' }, 'Clear')));
  submitsTo(form, 'jobs', FILTERS);
  form.addEventListener('reset', () => setTimeout(() => form.requestSubmit()));

  const body = h('tbody');
  const error = errorBox();
  const status = h('p', { class: 'muted', 'data-field': 'page' });
  const prev = h('button', { type: 'button', disabled: true }, 'Previous page');
  const next = h('button', { type: 'button', disabled: true }, 'Next page');
  /** The cursors of the pages before this one (undefined: the first page). */
  const back: (string | undefined)[] = [];
  let cursor: string | undefined;
  let following: string | null = null;
  prev.addEventListener('click', () => {
    cursor = back.pop();
    void refresh();
  });
  next.addEventListener('click', () => {
    if (!following) return;
    back.push(cursor);
    cursor = following;
    void refresh();
  });

  const el = h('section', { 'aria-labelledby': 'jobs-title' },
    Object.assign(heading('Jobs'), { id: 'jobs-title' }), form, error,
    table('Print jobs, newest first', ['Job', 'Reference', 'Terminal', 'Printer', 'State', 'Attempts', 'Created', 'Bytes', 'Reprint'], body),
    h('nav', { class: 'pager', 'aria-label': 'Pages of jobs' }, prev, status, next));

  /** The date filters' labels say the zone they are read in (the one every time is shown in), once it is known. */
  const zoned = () => {
    for (const [name, text] of [['desde', 'Created from'], ['ate', 'Created until']] as const) {
      const label = form.querySelector(`label[for="f-${name}"]`);
      if (label) label.textContent = `${text} (${zoneLabel()})`;
    }
  };

  async function refresh(): Promise<Refreshed> {
    // The dates typed are read in the service's zone: learned from any answer first, if none came yet.
    if (!serverZoneKnown() && (params.get('desde') || params.get('ate'))) {
      try {
        await get('/IntencaoImpressao/GetAll', { limite: 1 });
      } catch (err) {
        return showError(error, err, 'The job list');
      }
    }
    const query: Record<string, string | undefined> = { cursor };
    for (const name of FILTERS) {
      const v = params.get(name);
      if (v) query[name] = name === 'desde' || name === 'ate' ? instant(v) : v;
    }
    let answer: { intencoes: JobRow[]; proximoCursor: string | null };
    try {
      answer = await get('/IntencaoImpressao/GetAll', query);
      clearError(error);
    } catch (err) {
      return showError(error, err, 'The job list');
    }
    following = answer.proximoCursor;
    next.disabled = !following;
    prev.disabled = back.length === 0;
    status.textContent = `Page ${back.length + 1}: ${answer.intencoes.length} job${answer.intencoes.length === 1 ? '' : 's'}`;
    syncRows(body, answer.intencoes.map((j) => ({
      key: String(j.id),
      sig: JSON.stringify(j),
      build: () => h('tr', { 'data-job': j.id, 'data-estado': j.estado },
        h('th', { scope: 'row' }, h('a', { href: `#job/${j.id}` }, `#${j.id}`)),
        h('td', {}, j.referencia ?? '—'),
        h('td', {}, j.terminalId ?? '—'),
        h('td', {}, j.codigoImpressora),
        h('td', {}, h('span', { class: `state ${j.estado}` }, j.estado), j.motivos.length ? h('small', {}, ` ${reasons(j.motivos)}`) : null),
        h('td', { class: 'num' }, j.tentativas),
        h('td', {}, when(j.dataCriacao)),
        h('td', { class: 'num' }, j.tamanhoBytes),
        h('td', {}, j.reimpressaoDe ? h('a', { href: `#job/${j.reimpressaoDe}` }, `of #${j.reimpressaoDe}`) : j.reimpressoes ? `${j.reimpressoes}×` : '')),
    })));
    zoned();
    return 'current';
  }
  return { el, refresh };
}
