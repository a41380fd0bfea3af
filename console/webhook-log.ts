// The webhook delivery log (GET /Webhook/GetLog): the messages sent (or still trying) with their
// state, attempts and last error, each with a Replay button (POST /Webhook/Replay: sent again from
// the start of its schedule). The webhooks view shows the account's; a job's view shows its own.
import { get, post } from './api.js';
import { announce, h, syncRows, table } from './dom.js';
import { when } from './format.js';
import { clearError, errorBox, showError, type Refreshed } from './view.js';

interface Message {
  messageId: string;
  webhookId: string;
  url: string;
  type: string;
  intencaoImpressaoId: number | null;
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  lastError: string | null;
  createdAt: string;
}

export interface WebhookLog {
  el: HTMLElement;
  refresh(): Promise<Refreshed>;
}

export function webhookLog(caption: string, filter: { intencaoImpressaoId?: number } = {}): WebhookLog {
  const body = h('tbody');
  const error = errorBox();
  const empty = h('p', { class: 'muted', hidden: true }, 'No webhook messages.');

  async function replay(m: Message, button: HTMLButtonElement) {
    button.disabled = true;
    try {
      await post('/Webhook/Replay', undefined, { messageId: m.messageId });
      announce(`Message ${m.messageId} (${m.type}) queued to be sent again`);
      clearError(error);
      await refresh();
    } catch (err) {
      showError(error, err, 'Replay');
    } finally {
      button.disabled = false;
    }
  }

  async function refresh(): Promise<Refreshed> {
    let messages: Message[];
    try {
      messages = (await get<{ messages: Message[] }>('/Webhook/GetLog', { limit: 100, ...filter })).messages;
    } catch (err) {
      return showError(error, err, 'The webhook log');
    }
    clearError(error);
    empty.hidden = messages.length > 0;
    box.hidden = messages.length === 0;
    syncRows(body, messages.map((m) => ({
      key: m.messageId,
      sig: JSON.stringify(m),
      build: () => {
        const button = h('button', { type: 'button', 'aria-label': `Replay ${m.type} message ${m.messageId}` }, 'Replay');
        button.addEventListener('click', () => void replay(m, button));
        return h('tr', { 'data-message': m.messageId, 'data-state': m.state },
          h('td', {}, when(m.createdAt)),
          h('th', { scope: 'row' }, m.type),
          h('td', {}, m.intencaoImpressaoId ? h('a', { href: `#job/${m.intencaoImpressaoId}` }, `#${m.intencaoImpressaoId}`) : '—'),
          h('td', { class: 'url' }, m.url),
          h('td', {}, m.state, m.deliveredAt ? h('small', {}, ` ${when(m.deliveredAt)}`) : null),
          h('td', { class: 'num' }, m.attempts),
          h('td', {}, m.lastError ?? ''),
          h('td', {}, button));
      },
    })));
    return 'current';
  }

  const box = table(caption, ['Created', 'Event', 'Job', 'Endpoint', 'State', 'Attempts', 'Last error', 'Action'], body);
  const el = h('div', {}, error, empty, box);
  return { el, refresh };
}
