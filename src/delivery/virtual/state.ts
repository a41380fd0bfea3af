// The virtual printer's state (paper, cover, offline, error, speed) and the little control
// language that changes it, the same on stdin and on the HTTP control port: "paper out",
// "cover open", "offline refuse", "slow 2000", "reset"…
import type { StatusReason } from '../reasons.js';

export interface VirtualState {
  paper: 'ok' | 'low' | 'out';
  cover: 'closed' | 'open';
  /** no: online. refuse: the port refuses connections. silent: connections open but nothing is read or answered. */
  offline: 'no' | 'refuse' | 'silent';
  /** A printer error (cutter jam, head overheated): reported, nothing prints. */
  error: boolean;
  /** Bytes read per second (0: as fast as they come). A slow printer lets a test kill a writer mid-job. */
  slow: number;
}

export const INITIAL_STATE: Readonly<VirtualState> = Object.freeze({ paper: 'ok', cover: 'closed', offline: 'no', error: false, slow: 0 });

/** The reasons the printer's status replies report in `state`. */
export function activeReasons(state: VirtualState): Set<StatusReason> {
  const reasons = new Set<StatusReason>();
  if (state.paper === 'out') reasons.add('media-empty');
  if (state.paper === 'low') reasons.add('media-low');
  if (state.cover === 'open') reasons.add('cover-open');
  if (state.error) reasons.add('other');
  return reasons;
}

/** Whether received jobs print now (otherwise they wait in the printer, as a real one's buffer keeps them). */
export function canPrint(state: VirtualState): boolean {
  return state.paper !== 'out' && state.cover === 'closed' && !state.error && state.offline === 'no';
}

export type ControlAction = 'state' | 'jobs' | 'help' | 'quit';
export type Parsed = { patch: Partial<VirtualState> } | { action: ControlAction } | { error: string };

const choice =
  <K extends keyof VirtualState>(key: K, values: Readonly<Record<string, VirtualState[K]>>) =>
  (arg: string | undefined): Parsed =>
    arg !== undefined && Object.hasOwn(values, arg) ? { patch: { [key]: values[arg] } as Partial<VirtualState> } : { error: `${key}: expected ${Object.keys(values).join(' | ')}` };

/** Words of the control language → what they do. */
const COMMANDS: Readonly<Record<string, { usage: string; run: (arg: string | undefined) => Parsed }>> = {
  paper: { usage: 'paper ok|low|out', run: choice('paper', { ok: 'ok', low: 'low', out: 'out' }) },
  cover: { usage: 'cover open|closed', run: choice('cover', { open: 'open', closed: 'closed', close: 'closed' }) },
  offline: { usage: 'offline refuse|silent|no', run: choice('offline', { refuse: 'refuse', silent: 'silent', no: 'no', off: 'no' }) },
  online: { usage: 'online', run: () => ({ patch: { offline: 'no' } }) },
  error: { usage: 'error on|off', run: choice('error', { on: true, off: false }) },
  slow: {
    usage: 'slow <bytes per second>|off',
    run: (arg) => {
      if (arg === 'off' || arg === '0') return { patch: { slow: 0 } };
      const n = Number(arg);
      return Number.isInteger(n) && n > 0 ? { patch: { slow: n } } : { error: 'slow: expected a whole number of bytes per second, or off' };
    },
  },
  reset: { usage: 'reset', run: () => ({ patch: { ...INITIAL_STATE } }) },
  state: { usage: 'state', run: () => ({ action: 'state' }) },
  jobs: { usage: 'jobs', run: () => ({ action: 'jobs' }) },
  help: { usage: 'help', run: () => ({ action: 'help' }) },
  quit: { usage: 'quit', run: () => ({ action: 'quit' }) },
};

export const CONTROL_HELP = `commands: ${Object.values(COMMANDS).map((c) => c.usage).join('; ')}`;

/** One line of the control language. */
export function parseControl(line: string): Parsed {
  const [word, arg, extra] = line.trim().toLowerCase().split(/\s+/);
  const command = word ? COMMANDS[word] : undefined;
  if (!command) return { error: `unknown command "${word ?? ''}"; ${CONTROL_HELP}` };
  if (extra !== undefined) return { error: `${word}: too many words; usage: ${command.usage}` };
  return command.run(arg);
}

const CHECKS: { [K in keyof VirtualState]: (v: unknown) => boolean } = {
  paper: (v) => v === 'ok' || v === 'low' || v === 'out',
  cover: (v) => v === 'open' || v === 'closed',
  offline: (v) => v === 'no' || v === 'refuse' || v === 'silent',
  error: (v) => typeof v === 'boolean',
  slow: (v) => Number.isInteger(v) && (v as number) >= 0,
};

/** A JSON state change (HTTP control), checked key by key. */
export function checkPatch(value: unknown): Partial<VirtualState> | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object such as {"paper":"out"}';
  for (const [key, v] of Object.entries(value)) {
    const check = CHECKS[key as keyof VirtualState];
    if (!check) return `unknown key "${key}"; keys: ${Object.keys(CHECKS).join(', ')}`;
    if (!check(v)) return `bad value for "${key}": ${JSON.stringify(v)}`;
  }
  return value as Partial<VirtualState>;
}
