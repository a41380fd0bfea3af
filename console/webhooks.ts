// The webhooks view: the account's delivery log, newest first, with replay.
import { h } from './dom.js';
import { heading, type View } from './view.js';
import { webhookLog } from './webhook-log.js';

export function webhooksView(): View {
  const log = webhookLog('Webhook messages, newest first');
  const el = h('section', { 'aria-labelledby': 'webhooks-title' }, Object.assign(heading('Webhook log'), { id: 'webhooks-title' }), log.el);
  return { el, refresh: log.refresh };
}
