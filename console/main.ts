// The operator console: the login form, then the views (terminals, jobs, one job, the webhook log)
// routed by the address's fragment (#jobs?estado=held, #job/12: no token is ever in it), each
// refreshed every few seconds while the tab is visible (poll.ts says why polling).
import { loggedIn, login, loginFailure, logout, whenExpired } from './api.js';
import { clock, zoneLabel } from './format.js';
import { announce, h } from './dom.js';
import { jobView } from './job.js';
import { jobsView } from './jobs.js';
import { Poller } from './poll.js';
import { terminalsView } from './terminals.js';
import { parseRoute, type View } from './view.js';
import { webhooksView } from './webhooks.js';

const POLL_MS = 3000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const loginSection = $('login');
const loginForm = $<HTMLFormElement>('login-form');
const loginError = $('login-error');
const app = $('app');
const main = $('main');
const who = $('who');
const updated = $('updated');

let view: View | undefined;
let routeKey = '';

/** When the open view last showed the service's answer (the "Updated" line says it, not when the page last asked). */
let lastCurrent: Date | undefined;

const poller = new Poller(POLL_MS, async () => {
  if (!view) return;
  const shown = view;
  const result = await shown.refresh();
  if (shown !== view) return; // another view opened meanwhile: its own refresh says how it went
  if (result === 'gone') {
    // Nothing to update: asking again would say the same. Opening a view polls again.
    poller.idle();
    updated.textContent = `Times in the service's time zone (${zoneLabel()}).`;
    delete updated.dataset.stale;
    return;
  }
  if (result === 'current') lastCurrent = new Date();
  const since = lastCurrent ? `Updated ${clock(lastCurrent)}` : 'Not updated yet';
  if (result === 'current') {
    updated.textContent = `${since} · every ${POLL_MS / 1000} s while this tab is open · times in the service's time zone (${zoneLabel()})`;
    delete updated.dataset.stale;
  } else {
    updated.textContent = `${since} · stale: the last refresh failed, retrying every ${POLL_MS / 1000} s · times in the service's time zone (${zoneLabel()})`;
    updated.dataset.stale = 'true';
  }
});

function open(force = false): void {
  const route = parseRoute(location.hash);
  const key = `${route.name}/${route.id ?? ''}?${route.params}`;
  if (!force && key === routeKey) return;
  routeKey = key;
  lastCurrent = undefined;
  const id = Number(route.id);
  view = route.name === 'job' && Number.isInteger(id) && id > 0 ? jobView(id)
    : route.name === 'jobs' ? jobsView(route.params)
    : route.name === 'webhooks' ? webhooksView()
    : terminalsView(route.params);
  const section = route.name === 'job' ? 'jobs' : ['jobs', 'webhooks'].includes(route.name) ? route.name : 'terminals';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav.views a')) {
    if (a.getAttribute('href') === `#${section}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.replaceChildren(view.el);
  document.title = `${view.el.querySelector('h2')?.textContent ?? 'Console'} · bobina console`;
  view.el.querySelector('h2')?.focus();
  void poller.now();
}

function enter(name: string, email: string): void {
  who.replaceChildren(h('span', {}, `${name} <${email}>`), ' ', h('button', { type: 'button', id: 'logout' }, 'Log out'));
  $('logout').addEventListener('click', leave);
  loginSection.hidden = true;
  app.hidden = false;
  who.hidden = false;
  poller.start();
  open(true);
}

function leave(): void {
  logout();
  poller.stop();
  view = undefined;
  routeKey = '';
  main.replaceChildren();
  updated.textContent = '';
  delete updated.dataset.stale;
  app.hidden = true;
  who.hidden = true;
  loginSection.hidden = false;
  loginForm.reset();
  ($('email') as HTMLInputElement).focus();
}

loginForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const email = ($('email') as HTMLInputElement).value.trim();
  const password = ($('password') as HTMLInputElement).value;
  const button = loginForm.querySelector('button')!;
  button.disabled = true;
  loginError.hidden = true;
  try {
    const answer = await login(email, password);
    ($('password') as HTMLInputElement).value = '';
    enter(answer.user_detail.name, answer.user_detail.email);
  } catch (err) {
    loginError.textContent = loginFailure(err);
    loginError.hidden = false;
    ($('password') as HTMLInputElement).focus();
  } finally {
    button.disabled = false;
  }
});

whenExpired(() => {
  leave();
  loginError.textContent = 'The session ended: log in again.';
  loginError.hidden = false;
  announce('The session ended: log in again.');
});

window.addEventListener('hashchange', () => loggedIn() && open());
($('email') as HTMLInputElement).focus();
