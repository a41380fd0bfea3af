// What every view of the console is: a section put in <main> when its route opens, refreshed by the
// poller while it stays open. A view that needs an endpoint this service lacks says so in its place.
import { ApiError } from './api.js';
import { h } from './dom.js';

export interface View {
  /** The section shown; its <h2> takes the focus when the view opens. */
  readonly el: HTMLElement;
  /** Fetches and draws; errors are shown by the view itself, and said in the result (the page's "Updated" line). */
  refresh(): Promise<Refreshed>;
}

/**
 * How a refresh went: `current` (what is shown is the service's answer of now), `failed` (the view
 * shows what it had, and why it could not ask), `gone` (what the view shows does not exist: asking
 * again would say the same, so the page stops asking).
 */
export type Refreshed = 'current' | 'failed' | 'gone';

/** The route: "#jobs?estado=held" → { name: 'jobs', params }; "#job/12" → { name: 'job', id: '12' }. */
export interface Route {
  name: string;
  id: string | undefined;
  params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const [name = '', id] = path.split('/');
  return { name: name || 'terminals', id, params: new URLSearchParams(query) };
}

/** A heading that takes the focus when its view opens (so keyboard and screen-reader users land there). */
export const heading = (text: string) => h('h2', { tabindex: -1 }, text);

/** The view's error line: the API's message, or that this service version lacks the endpoint. */
export function showError(box: HTMLElement, err: unknown, what: string): 'failed' {
  if (err instanceof ApiError && err.notAvailable) {
    box.textContent = `${what} is not available: this service has no such endpoint (an older version).`;
    box.dataset.notAvailable = 'true';
  } else {
    box.textContent = `${what} failed: ${err instanceof Error ? err.message : String(err)}`;
    delete box.dataset.notAvailable;
  }
  box.hidden = false;
  return 'failed';
}

export function clearError(box: HTMLElement): void {
  box.hidden = true;
  delete box.dataset.notAvailable;
  box.textContent = '';
}

export const errorBox = () => h('p', { class: 'error', role: 'alert', hidden: true });
