// A profile's `status` data compiled once into bytes: the queries to send, how to read each reply
// into reasons, and how to write a reply for a given set of reasons (the virtual printer's side).
// Every model difference lives in the profile; nothing here knows a model.
import type { Profile } from '../profiles/index.js';
import type { StatusQueryData } from '../profiles/status-schema.js';
import { fromHex } from './hex.js';
import type { StatusReason } from './reasons.js';

interface BitTest {
  byte: number;
  mask: number;
  value: number;
}

export interface StatusQuery {
  send: Uint8Array;
  replyLength: number;
  idle: Uint8Array;
  fixed: readonly BitTest[];
  rules: readonly (BitTest & { reason: StatusReason })[];
}

export interface ConfirmPlan {
  request: Uint8Array;
  idLength: number;
  replyPrefix: Uint8Array;
  replySuffix: Uint8Array;
}

export interface StatusPlan {
  setup: Uint8Array | undefined;
  settleMs: number;
  timeoutMs: number;
  queries: readonly StatusQuery[];
  confirm: ConfirmPlan | undefined;
}

const DEFAULT_TIMEOUT_MS = 1000;
const plans = new WeakMap<Profile, StatusPlan | null>();

const bits = (t: { byte: number; mask: string; value: string }): BitTest => ({ byte: t.byte, mask: parseInt(t.mask, 16), value: parseInt(t.value, 16) });

function compileQuery(q: StatusQueryData): StatusQuery {
  return {
    send: fromHex(q.send),
    replyLength: q.replyLength,
    idle: fromHex(q.idle),
    fixed: (q.fixed ?? []).map(bits),
    rules: q.rules.map((r) => ({ ...bits(r), reason: r.reason })),
  };
}

/** The compiled status plan of a profile, or undefined when it has none (the generic template). */
export function statusPlan(profile: Profile): StatusPlan | undefined {
  let plan = plans.get(profile);
  if (plan === undefined) {
    const s = profile.status;
    plan = s
      ? {
          setup: s.setup ? fromHex(s.setup) : undefined,
          settleMs: s.settleMs ?? 0,
          timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          queries: s.queries.map(compileQuery),
          confirm: s.confirm
            ? { request: fromHex(s.confirm.request), idLength: s.confirm.idLength, replyPrefix: fromHex(s.confirm.replyPrefix), replySuffix: fromHex(s.confirm.replySuffix) }
            : undefined,
        }
      : null;
    plans.set(profile, plan);
  }
  return plan ?? undefined;
}

const holds = (reply: Uint8Array, t: BitTest) => ((reply[t.byte] ?? 0) & t.mask) === t.value;

/** Whether a reply has the bits every genuine reply has (so a stray byte is not taken for one). */
export function isGenuineReply(query: StatusQuery, reply: Uint8Array): boolean {
  return reply.length === query.replyLength && query.fixed.every((t) => holds(reply, t));
}

/** The reasons a reply gives, by the profile's rules. */
export function readReply(query: StatusQuery, reply: Uint8Array): StatusReason[] {
  return query.rules.filter((r) => holds(reply, r)).map((r) => r.reason);
}

/**
 * The reply a printer in the given state sends: the idle reply with the bits of every active
 * reason written in. The inverse of readReply, used by the virtual printer.
 */
export function writeReply(query: StatusQuery, active: ReadonlySet<StatusReason>): Uint8Array {
  const reply = Uint8Array.from({ length: query.replyLength }, (_, i) => query.idle[i] ?? 0);
  for (const r of query.rules) {
    if (!active.has(r.reason)) continue;
    reply[r.byte] = ((reply[r.byte] ?? 0) & ~r.mask) | r.value;
  }
  return reply;
}
