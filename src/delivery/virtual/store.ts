// What the virtual printer keeps of each printed job: a record in memory and, with an output
// directory, job-NNNN.bin (the bytes), job-NNNN.png (the preview; SVG with a note when the PNG
// renderer is unavailable) and job-NNNN.json (the record).
import { disassemble, renderPng, renderSvg } from '../../inspect/index.js';
import type { Profile } from '../../profiles/index.js';
import { crypto, fs, path } from '../builtins.js';
import type { JobEnd } from './reader.js';

export interface VirtualJob {
  /** 1, 2, 3… in printing order (continuing after the jobs already in the output directory). */
  seq: number;
  bytes: Uint8Array;
  size: number;
  sha256: string;
  /** How the job ended: the client asked for confirmation, closed the connection, or the connection broke. */
  endedBy: JobEnd['by'];
  /** The bytes stop inside a command. */
  truncated: boolean;
  /**
   * Ended by a confirmation request, or by a clean close on a command boundary. A job cut short
   * exactly between two commands cannot be told from a shorter job by any printer: compare the
   * bytes with what was sent.
   */
  complete: boolean;
  receivedAt: string;
  printedAt: string;
  /** Files written for the job (absolute paths), with --out. */
  files: string[];
  note?: string;
}

const NAME = /^job-(\d+)\./;

/** The number after the highest job-NNNN file already in `dir`, so a restart never overwrites. */
export function nextSeq(dir: string | undefined): number {
  if (!dir) return 1;
  fs().mkdirSync(dir, { recursive: true });
  let max = 0;
  for (const f of fs().readdirSync(dir)) max = Math.max(max, Number(NAME.exec(f)?.[1] ?? 0));
  return max + 1;
}

export function makeJob(seq: number, bytes: Uint8Array, end: JobEnd, receivedAt: Date, profile: Profile): VirtualJob {
  const last = profile.output === 'escpos' && bytes.length ? disassemble(bytes, { printer: profile }).at(-1) : undefined;
  const truncated = last?.kind === 'truncated';
  return {
    seq,
    bytes,
    size: bytes.length,
    sha256: crypto().createHash('sha256').update(bytes).digest('hex'),
    endedBy: end.by,
    truncated,
    complete: end.by === 'confirm' || (end.by === 'close' && !truncated),
    receivedAt: receivedAt.toISOString(),
    printedAt: new Date().toISOString(),
    files: [],
  };
}

/** Writes the job's files into `dir` and lists them in `job.files`. */
export function saveJob(job: VirtualJob, dir: string, profile: Profile): void {
  const base = path().resolve(dir, `job-${String(job.seq).padStart(4, '0')}`);
  fs().writeFileSync(`${base}.bin`, job.bytes);
  job.files.push(`${base}.bin`);
  try {
    fs().writeFileSync(`${base}.png`, renderPng(job.bytes, { printer: profile }));
    job.files.push(`${base}.png`);
  } catch (err) {
    try {
      fs().writeFileSync(`${base}.svg`, renderSvg(job.bytes, { printer: profile }));
      job.files.push(`${base}.svg`);
      job.note = `PNG preview unavailable (${(err as Error).message.split('\n')[0]}): wrote SVG`;
    } catch (svgErr) {
      job.note = `no preview: ${(svgErr as Error).message.split('\n')[0]}`;
    }
  }
  const { bytes: _bytes, ...record } = job;
  fs().writeFileSync(`${base}.json`, JSON.stringify({ ...record, files: [...job.files, `${base}.json`] }, null, 2) + '\n');
  job.files.push(`${base}.json`);
}
