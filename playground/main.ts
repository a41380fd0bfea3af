// The playground page: conteudo in, and at every keystroke the compiler's three answers out — the
// preview (the same drawing as `bobina preview`), the listing and the diagnostics, each one
// highlighted in the source at its line and column. The compiler runs in a worker (worker.ts), the
// preview is redrawn only where it changed (preview.ts), so typing stays fast on long receipts;
// the text is kept across reloads and can be shared as a link (persist.ts); the bytes can be
// downloaded as a .bin for the printer once there are no errors. Nothing is sent anywhere.
import { Backdrop } from './backdrop.js';
import { showDiagnostics } from './diagnostics-view.js';
import { fromHash, linkHash, loadSaved, save, type Saved } from './persist.js';
import { Preview } from './preview.js';
import type { FromWorker, ProfileEntry, ToWorker } from './protocol.js';
import { SAMPLE } from './sample.js';
import { buildToolbar } from './toolbar.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const source = $<HTMLTextAreaElement>('conteudo');
const backdrop = $<HTMLDivElement>('backdrop');
const printerSelect = $<HTMLSelectElement>('printer');
const listingView = $<HTMLPreElement>('listing');
const diagnosticsView = $<HTMLUListElement>('diagnostics');
const status = $<HTMLSpanElement>('status');
const download = $<HTMLButtonElement>('download');
const share = $<HTMLButtonElement>('share');
const shareLink = $<HTMLInputElement>('share-link');
const notice = $<HTMLParagraphElement>('notice');

const preview = new Preview($('preview'));
const marks = new Backdrop(backdrop);
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const send = (message: ToWorker) => worker.postMessage(message);

let profiles: ProfileEntry[] = [];
let bytes: Uint8Array = new Uint8Array();
let shown = 0;
let sent = 0;
let inFlight = false;
let dirty = false;
let downloadWhenDone = false;
/** Keystrokes not yet repainted: when they happened, and the compile that carries them. */
const keystrokes: { at: number; seq?: number }[] = [];

const say = (message: string) => (notice.textContent = message);
const printerCode = () => profiles[Number(printerSelect.value)]?.code;
const current = (): Saved => ({ conteudo: source.value, printer: printerCode() });

function request(): void {
  if (inFlight) {
    dirty = true;
    return;
  }
  inFlight = true;
  dirty = false;
  status.dataset.settled = 'false';
  sent += 1;
  for (const k of keystrokes) k.seq ??= sent;
  send({ type: 'compile', seq: sent, conteudo: source.value, printer: Number(printerSelect.value) });
}

/** After the next frame is painted: the end of a keystroke's repaint, as performance measures. */
function measureRepaint(seq: number): void {
  const done = keystrokes.filter((k) => k.seq !== undefined && k.seq <= seq);
  if (done.length === 0) return;
  keystrokes.splice(0, done.length);
  requestAnimationFrame(() =>
    setTimeout(() => {
      const end = performance.now();
      // The figures of the last thousand keystrokes are kept, not a whole day's.
      if (performance.getEntriesByName('keystroke→repaint').length > 1000) performance.clearMeasures();
      for (const k of done) performance.measure('keystroke→repaint', { start: k.at, end });
      const last = end - done[done.length - 1]!.at;
      status.dataset.repaintMs = last.toFixed(1);
    }, 0),
  );
}

function show(result: Extract<FromWorker, { type: 'result' }>): void {
  shown = result.seq;
  bytes = result.bytes;
  const started = performance.now();
  const created = preview.update(result.preview);
  marks.update(source.value, result.diagnostics.map((d) => ({ severity: d.severity, code: d.code, start: d.span.start.offset, end: d.span.end.offset })));
  backdrop.scrollTop = source.scrollTop;
  showDiagnostics(diagnosticsView, source, result.diagnostics);
  performance.measure('repaint:dom', { start: started, end: performance.now() });
  download.disabled = result.errors;
  download.title = result.errors ? 'the receipt has errors: fix them to download it' : 'the bytes for the printer, as a .bin file';
  status.textContent = `${bytes.length} bytes · ${result.diagnostics.length} diagnostics${result.errors ? ' (errors: do not print)' : ''} · compiled in ${result.compileMs.toFixed(1)} ms`;
  status.dataset.marksCreated = String(created);
  measureRepaint(result.seq);
}

/** The listing waits for a pause in typing: a burst of keystrokes asks for it once. */
let listingTimer = 0;
function listingSoon(seq: number): void {
  clearTimeout(listingTimer);
  listingTimer = window.setTimeout(() => {
    if (seq === shown && !inFlight && !dirty) send({ type: 'listing', seq });
  }, 200);
}

function saveDownload(): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/octet-stream' }));
  link.download = `receipt-${printerCode()}.bin`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
  if (data.type === 'profiles') {
    profiles = data.profiles;
    void start();
  } else if (data.type === 'result') {
    inFlight = false;
    show(data);
    if (dirty) request();
    else {
      // The page shows the text as it is now (tests and tools wait for this).
      status.dataset.settled = 'true';
      listingSoon(data.seq);
      if (downloadWhenDone && !data.errors) saveDownload();
      downloadWhenDone = false;
    }
  } else if (data.seq === shown && listingView.textContent !== data.listing) {
    listingView.textContent = data.listing;
  }
};
worker.onerror = (event) => say(`the compiler worker failed: ${event.message}`);

/** Saving waits for a pause in typing (a receipt with images is large); leaving the page saves at once. */
let saveTimer = 0;
function saveSoon(): void {
  clearTimeout(saveTimer);
  saveTimer = window.setTimeout(saveNow, 300);
}
function saveNow(): void {
  clearTimeout(saveTimer);
  if (!save(current())) say('this browser would not keep the text (storage full or disabled): share it as a link instead');
}

function edited(): void {
  // A link's hash stays until the first edit; from then on a reload shows the edited text.
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  shareLink.hidden = true;
  saveSoon();
}

function selectPrinter(code: string | undefined): void {
  const entry = profiles.find((p) => p.code === code) ?? profiles.find((p) => p.code === 'MAKER5T20');
  if (entry) printerSelect.value = String(entry.index);
}

async function open(hash: string): Promise<boolean> {
  const linked = hash ? await fromHash(hash) : undefined;
  if (linked === 'unreadable') {
    // Said, not ignored: the person expected the link's receipt and would otherwise see another text without knowing why.
    say('This link could not be read (it was cut short or changed), so the receipt it was for is not shown.');
    return false;
  }
  if (!linked) return false;
  source.value = linked.conteudo;
  selectPrinter(linked.printer);
  request();
  return true;
}

async function start(): Promise<void> {
  for (const p of profiles) printerSelect.add(new Option(p.label, String(p.index)));
  if (!(await open(location.hash))) {
    const saved = loadSaved();
    source.value = saved?.conteudo ?? SAMPLE;
    selectPrinter(saved?.printer);
    request();
  }
  source.disabled = false;
}

buildToolbar($('tools'), source, say);
source.addEventListener('input', (event) => {
  keystrokes.push({ at: event.timeStamp });
  request();
  edited();
});
source.addEventListener('scroll', () => (backdrop.scrollTop = source.scrollTop));
printerSelect.addEventListener('change', () => {
  request();
  edited();
});
window.addEventListener('hashchange', () => void open(location.hash));
window.addEventListener('pagehide', saveNow);
download.addEventListener('click', () => {
  if (inFlight || dirty) downloadWhenDone = true;
  else saveDownload();
});
share.addEventListener('click', async () => {
  const hash = await linkHash(current());
  // Chromium refuses addresses past 2 MB: a receipt with large images cannot travel in a link.
  if (hash.length > 2_000_000) return say('this receipt is too large for a link (its images, most likely): download it instead');
  history.replaceState(null, '', hash);
  shareLink.value = location.href;
  shareLink.hidden = false;
  shareLink.select();
  try {
    await navigator.clipboard.writeText(location.href);
    say('link copied: it opens this receipt');
  } catch {
    say('copy the link above: it opens this receipt');
  }
});
