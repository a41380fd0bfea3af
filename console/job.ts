// One job (GET /IntencaoImpressao/GetById): its state and reasons, its history, its diagnostics, its
// content, its preview from the stored bytes, its webhook messages; and what an operator may do:
// cancel (Cancelar), start a held or outcome-unknown job (Iniciar), reprint with an optional marker
// (Reimprimir). The service decides what is allowed; a refusal is shown with its message. A job the
// account does not have is said to be missing, with no action, and not asked for again.
import { ApiError, post, get } from './api.js';
import { announce, h, syncRows, table } from './dom.js';
import { reasons, when } from './format.js';
import { drawPreview } from './preview.js';
import { clearError, errorBox, heading, showError, type Refreshed, type View } from './view.js';
import { webhookLog } from './webhook-log.js';

interface Job {
  id: number;
  referencia: string | null;
  conteudo: string;
  terminalId: string | null;
  codigoImpressora: string;
  aguardarClienteIniciarImpressao: boolean;
  status: string;
  estado: string;
  motivos: string[];
  tentativas: number;
  confirmacao: string;
  dataCriacao: string;
  tamanhoBytes: number;
  diagnostics: { code: string; severity: string; message: string; line: number; column: number }[];
  historico: { estado: string; motivos: string[]; origem: string; data: string; evento: string; detalhe: string | null }[];
  reimpressaoDe?: number | null;
  reimpressoes?: number;
}

/** States the actions apply to (the service's lifecycle table has the last word). */
const CANCELABLE = new Set(['held', 'queued', 'stopped']);
const STARTABLE = new Set(['held', 'stopped']);

export function jobView(id: number): View {
  const error = errorBox();
  /** What an action or the preview answered wrong: kept until the next action, not cleared by a refresh. */
  const actionError = errorBox();
  actionError.tabIndex = -1;
  const facts = h('dl', { class: 'facts' });
  const history = h('tbody');
  const diagnostics = h('ul', { class: 'diagnostics' });
  const content = h('pre', { class: 'content', tabindex: 0, 'aria-label': 'Content (conteudo)' });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite' });
  const log = webhookLog(`Webhook messages of job #${id}`, { intencaoImpressaoId: id });

  // Shown once the job's state says they apply.
  const cancel = h('button', { type: 'button', class: 'danger', hidden: true }, 'Cancel job');
  const start = h('button', { type: 'button', hidden: true }, 'Start printing');
  const marker = h('input', { id: 'marcador', name: 'marcador', type: 'text', maxlength: 64, autocomplete: 'off', placeholder: '2ª VIA' });
  const reprint = h('form', { class: 'reprint', method: 'post', 'aria-label': 'Reprint' },
    h('label', { for: 'marcador' }, 'Marker (optional)'), marker, h('button', { type: 'submit' }, 'Reprint'));
  const showPreview = h('button', { type: 'button', 'aria-controls': 'preview' }, 'Show preview');
  preview.id = 'preview';

  async function act(what: string, button: HTMLButtonElement, run: () => Promise<string>) {
    button.disabled = true;
    try {
      clearError(actionError);
      const said = await run();
      announce(said);
      await refresh();
      // A button the new state hides (Cancel on a canceled job) would leave the focus nowhere.
      if (button.hidden) el.querySelector('h2')?.focus();
    } catch (err) {
      showError(actionError, err, what);
      actionError.focus();
    } finally {
      button.disabled = false;
    }
  }
  cancel.addEventListener('click', () => {
    if (!confirm(`Cancel job #${id}? It will not be printed.`)) return;
    void act('Cancel', cancel, async () => (await post('/IntencaoImpressao/Cancelar', { intencaoImpressaoId: id }), `Job #${id} canceled`));
  });
  start.addEventListener('click', () => void act('Start', start, async () => (await post('/IntencaoImpressao/Iniciar', { intencaoImpressaoId: id }), `Job #${id} started: queued for its printer`)));
  reprint.addEventListener('submit', (e) => {
    e.preventDefault();
    const button = reprint.querySelector('button')!;
    void act('Reprint', button, async () => {
      const m = marker.value.trim();
      // One key per click: a request sent again (after a token renewal) never makes a second copy.
      const answer = await post<{ intencaoImpressao: { id: number } }>('/IntencaoImpressao/Reimprimir', { intencaoImpressaoId: id }, m ? { marcador: m } : {}, { 'idempotency-key': crypto.randomUUID() });
      const copy = answer.intencaoImpressao.id;
      marker.value = '';
      notice.replaceChildren('Reprinted as ', h('a', { href: `#job/${copy}`, 'data-reprint': copy }, `job #${copy}`), '.');
      notice.hidden = false;
      return `Job #${id} reprinted as job #${copy}`;
    });
  });
  showPreview.addEventListener('click', () => {
    showPreview.disabled = true;
    clearError(actionError);
    preview.textContent = 'Drawing the preview…';
    drawPreview(id, preview)
      .then(() => (showPreview.textContent = 'Redraw preview'))
      .catch((err) => {
        preview.replaceChildren();
        showError(actionError, err, 'The preview');
      })
      .finally(() => (showPreview.disabled = false));
  });
  const notice = h('p', { class: 'notice', hidden: true });

  const el = h('section', { 'aria-labelledby': 'job-title' },
    Object.assign(heading(`Job #${id}`), { id: 'job-title' }),
    h('p', {}, h('a', { href: '#jobs' }, '← All jobs')),
    error, facts,
    h('div', { class: 'actions', role: 'group', 'aria-label': 'Actions' }, cancel, start, reprint), actionError, notice,
    h('h3', {}, 'Preview'), showPreview, preview,
    h('h3', {}, 'History'), table(`History of job #${id}, oldest first`, ['When', 'State', 'Event', 'By', 'Reasons', 'Detail'], history),
    h('h3', {}, 'Diagnostics'), diagnostics,
    h('h3', {}, 'Content'), content,
    h('h3', {}, 'Webhook messages'), log.el);

  const fact = (term: string, ...value: (Node | string)[]) => [h('dt', {}, term), h('dd', {}, ...value)];

  /** No such job in this account: the page says so, without the job's parts or its actions (none applies). */
  function gone(): Refreshed {
    el.dataset.notFound = 'true';
    el.replaceChildren(el.firstChild!, h('p', { class: 'notice', 'data-field': 'not-found' },
      `There is no job #${id} in this account: check the number, or find the job in `, h('a', { href: '#jobs' }, 'the job list'), '.'));
    return 'gone';
  }

  async function refresh(): Promise<Refreshed> {
    if (el.dataset.notFound) return 'gone';
    let job: Job;
    try {
      job = (await get<{ intencaoImpressao: Job }>('/IntencaoImpressao/GetById', { intencaoImpressaoId: id })).intencaoImpressao;
      clearError(error);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && err.code === 'intention-not-found') return gone();
      return showError(error, err, `Job #${id}`);
    }
    el.dataset.estado = job.estado;
    cancel.hidden = !CANCELABLE.has(job.estado);
    start.hidden = !STARTABLE.has(job.estado);
    const sig = JSON.stringify([job.estado, job.motivos, job.tentativas, job.confirmacao, job.reimpressoes, job.historico.length]);
    if (facts.dataset.sig !== sig) {
      facts.dataset.sig = sig;
      facts.replaceChildren(
        ...fact('State', h('span', { class: `state ${job.estado}`, 'data-field': 'estado' }, job.estado), job.motivos.length ? ` — ${reasons(job.motivos)}` : ''),
        ...fact('Status', job.status),
        ...fact('Reference', job.referencia ?? '—'),
        ...fact('Terminal', job.terminalId ?? '—'),
        ...fact('Printer', job.codigoImpressora),
        ...fact('Created', when(job.dataCriacao)),
        ...fact('Attempts', String(job.tentativas)),
        ...fact('Confirmation', job.confirmacao || '—'),
        ...fact('Size', `${job.tamanhoBytes} bytes`),
        ...fact('Waits to be started', job.aguardarClienteIniciarImpressao ? 'yes' : 'no'),
        ...(job.reimpressaoDe ? fact('Reprint of', h('a', { href: `#job/${job.reimpressaoDe}` }, `job #${job.reimpressaoDe}`)) : []),
        ...(job.reimpressoes !== undefined ? fact('Reprints', String(job.reimpressoes)) : []),
      );
    }
    syncRows(history, job.historico.map((e, i) => ({
      key: String(i),
      sig: JSON.stringify(e),
      build: () => h('tr', {}, h('td', {}, when(e.data)), h('th', { scope: 'row' }, e.estado), h('td', {}, e.evento), h('td', {}, e.origem), h('td', {}, reasons(e.motivos)), h('td', {}, e.detalhe ?? '')),
    })));
    if (content.textContent !== job.conteudo) content.textContent = job.conteudo;
    const diag = JSON.stringify(job.diagnostics);
    if (diagnostics.dataset.sig !== diag) {
      diagnostics.dataset.sig = diag;
      diagnostics.replaceChildren(...(job.diagnostics.length
        ? job.diagnostics.map((d) => h('li', { class: d.severity }, `${d.severity} ${d.code} at ${d.line}:${d.column}: ${d.message}`))
        : [h('li', { class: 'muted' }, 'None: compiled cleanly.')]));
    }
    return log.refresh();
  }
  return { el, refresh };
}
