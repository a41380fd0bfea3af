// How times, ages and printer reasons read in the console.
import { OUTCOME_UNKNOWN, PRINTER_MISMATCH, REASONS } from '../src/delivery/reasons.js';

/** "3 s", "4 min 10 s", "2 h 5 min", "3 d 1 h". */
export function age(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

/**
 * A date from the API: an ISO 8601 instant (the newer fields) in the reader's own time zone; the
 * spec's "dd/MM/yyyy HH:mm:ss.fff" (dataCriacao, historico's data) as written, in the server's time.
 */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  if (!/^\d{4}-\d\d-\d\dT/.test(value)) return value.replace(/\.\d{3}$/, '');
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
}

/** What a reason code means: the printer's words from delivery's own table, and the service's two (the code is shown beside, for searching logs). */
const SAYS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(REASONS).map(([code, r]) => [code, r.says])),
  [OUTCOME_UNKNOWN]: 'outcome unknown',
  [PRINTER_MISMATCH]: 'compiled for another printer',
};

export const reason = (code: string) => (SAYS[code] ? `${SAYS[code]} (${code})` : code);
export const reasons = (codes: readonly string[] | null | undefined) => (codes && codes.length ? codes.map(reason).join(', ') : '');
