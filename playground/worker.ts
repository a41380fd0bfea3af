// The playground's compile worker: the compiler, the preview layout and the listing run here, off
// the page's main thread, so a keystroke on a long receipt never blocks typing. The page holds no
// copy of the compiler: only this worker imports the library.
import { compile, formatListing, hasErrors, listProfiles, renderPage, svgParts, type EmitRecord, type Mark } from 'bobina';
import type { FromWorker, PreviewMark, ToWorker } from './protocol.js';

const profiles = listProfiles();
const post = (message: FromWorker, transfer: Transferable[] = []) => postMessage(message, { transfer });

/** The last compile, kept for the listing the page asks for when it is idle. */
let last: { seq: number; conteudo: string; printer: number; bytes: Uint8Array; records: EmitRecord[] } | undefined;

/** A mark moved to y = 0 (every y coordinate it has shifts by the same amount), and where it was. */
function atOrigin(mark: Mark): { y: number; mark: Mark } {
  const y = 'y' in mark ? mark.y : mark.y0;
  const moved: Record<string, unknown> = { ...mark };
  for (const key of ['y', 'y0', 'y1']) if (typeof moved[key] === 'number') moved[key] = (moved[key] as number) - y;
  return { y, mark: moved as unknown as Mark };
}

function compileAndDraw(seq: number, conteudo: string, printer: number): void {
  const started = performance.now();
  const profile = profiles[printer] ?? profiles[0]!;
  const result = compile(conteudo, { printer: profile, records: true });
  const page = renderPage(result.bytes, { printer: profile });
  const placed = page.marks.map(atOrigin);
  const parts = svgParts({ ...page, marks: placed.map((p) => p.mark) });
  const marks: PreviewMark[] = [];
  parts.marks.forEach((svg, i) => {
    if (svg) marks.push({ y: placed[i]!.y, svg });
  });
  last = { seq, conteudo, printer, bytes: result.bytes, records: result.records ?? [] };
  // In the worker's own timeline: where the compile ran can be checked, and its cost read.
  if (performance.getEntriesByName('compile').length > 1000) performance.clearMeasures();
  performance.measure('compile', { start: started, end: performance.now() });
  post({
    type: 'result',
    seq,
    bytes: result.bytes.slice(),
    diagnostics: result.diagnostics,
    errors: hasErrors(result.diagnostics),
    preview: { head: parts.head, tail: parts.tail, marks },
    compileMs: performance.getEntriesByName('compile').at(-1)!.duration,
  });
}

onmessage = ({ data }: MessageEvent<ToWorker>) => {
  if (data.type === 'compile') compileAndDraw(data.seq, data.conteudo, data.printer);
  else if (last && data.seq === last.seq) {
    const listing = formatListing(last.bytes, last.records, last.conteudo, { printer: profiles[last.printer] ?? profiles[0]! });
    post({ type: 'listing', seq: last.seq, listing });
  }
};

post({ type: 'profiles', profiles: profiles.map((p, index) => ({ index, code: p.code, label: `${p.id} ${p.code} — ${p.printer}` })) });
