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
 * Every time in the console is shown one way: in the service's time zone (the one its spec-form
 * dates, "dd/MM/yyyy HH:mm:ss.fff", are written in, without a zone), as "dd/MM/yyyy HH:mm:ss", with
 * the zone said once on the page (zoneLabel) and in the date filters' labels; and the filters read
 * what is typed in that same zone (instant), so a time copied from a list finds its job. The zone
 * is learned from the `data` (the service's clock) of every answer, as an offset from UTC.
 */
let offsetMinutes: number | undefined;

const SPEC_DATE = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)(?:\.(\d{3}))?$/;
const p2 = (n: number) => String(n).padStart(2, '0');

/**
 * The service's offset from its `data` (its clock, in its own zone) read `receivedAt`: rounded to a
 * quarter of an hour (every zone's offset is a multiple of it), so a clock some minutes off, or the
 * answer's time on the way, does not move it.
 */
export function learnServerZone(data: unknown, receivedAt = Date.now()): void {
  const m = typeof data === 'string' ? SPEC_DATE.exec(data) : null;
  if (!m) return;
  const asUtc = Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  offsetMinutes = Math.round((asUtc - receivedAt) / 900_000) * 15;
}

export const serverZoneKnown = () => offsetMinutes !== undefined;

/** The offset used: the service's once learned, until then the browser's own (the service's is learned with the first answer). */
const offset = () => offsetMinutes ?? -new Date().getTimezoneOffset();

/** "UTC−03:00": the zone every time on the page is in. */
export function zoneLabel(): string {
  const o = offset();
  const a = Math.abs(o);
  return `UTC${o < 0 ? '−' : '+'}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
}

/** An instant as the console shows every time: "25/11/2026 08:30:00" in the service's zone. */
export function clock(at: Date): string {
  const d = new Date(at.getTime() + offset() * 60_000);
  return `${p2(d.getUTCDate())}/${p2(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
}

/** A date from the API as the console shows it: an ISO 8601 instant (the newer fields) or the spec's form (already in the service's zone). */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  if (SPEC_DATE.test(value)) return value.replace(/\.\d{3}$/, '');
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : clock(d);
}

/** A date filter's value ("2026-11-25T08:30", typed in the service's zone, as shown) as the API's ISO 8601 instant. */
export function instant(typed: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?$/.exec(typed);
  if (!m) return typed;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), Number((m[7] ?? '0').padEnd(3, '0')));
  return new Date(utc - offset() * 60_000).toISOString();
}

/** What a reason code means: the printer's words from delivery's own table, and the service's two (the code is shown beside, for searching logs). */
const SAYS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(REASONS).map(([code, r]) => [code, r.says])),
  [OUTCOME_UNKNOWN]: 'outcome unknown',
  [PRINTER_MISMATCH]: 'compiled for another printer',
};

export const reason = (code: string) => (SAYS[code] ? `${SAYS[code]} (${code})` : code);
export const reasons = (codes: readonly string[] | null | undefined) => (codes && codes.length ? codes.map(reason).join(', ') : '');
