// The terminal's job use cases as a TerminalLink (delivery/loop.ts), acting as one terminal: what
// the service's own direct delivery (workers/direct-delivery.ts) talks to, in process instead of
// over HTTP, through the same protocol mapping as the routes (delivery/protocol.ts). Its polls and
// heartbeats are contacts the fleet's health records, as the routes' are.
import type { TerminalLink } from '../../delivery/loop.js';
import { offerOf, terminalStateOf, type ClientHealth } from '../../delivery/protocol.js';
import type { Fleet } from '../fleet/fleet.js';
import type { Principal } from '../store/types.js';
import type { Jobs } from './jobs.js';

const contactOf = (h: ClientHealth) => ({ ...(h.printer ? { printer: h.printer } : {}), agentVersion: h.agentVersion });

export function inProcessLink(jobs: Jobs, principal: Principal, fleet?: Fleet): TerminalLink {
  return {
    async next(waitMs, signal, health) {
      if (fleet && !jobs.closing) await fleet.contact(principal, health ? contactOf(health) : {});
      // The app is closing: wait for this loop to be stopped instead of asking again at once.
      if (jobs.closing) await new Promise((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener('abort', resolve, { once: true })));
      const offer = await jobs.terminal.next(principal, waitMs, signal);
      if (!offer && signal.aborted) return {};
      const view = await jobs.terminal.terminalView(principal);
      const terminal = { ...(view ? { terminal: terminalStateOf(view) } : {}), ...(fleet ? { heartbeatMs: fleet.settings.heartbeatMs } : {}) };
      return offer ? { offer: offerOf(offer.job, offer.token, jobs.settings.leaseMs), ...terminal } : terminal;
    },
    report: async (r) => ({ aceito: (await jobs.terminal.report(principal, r)).aceito }),
    renew: async (id, token) => ({ aceito: (await jobs.terminal.renew(principal, { id, token })).aceito }),
    resume: () => jobs.terminal.resume(principal),
    async signal(health) {
      if (fleet && !jobs.closing) await fleet.contact(principal, contactOf(health));
    },
  };
}
