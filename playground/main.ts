// The playground: conteudo in, and at every keystroke the compiler's three answers out — the
// preview (the same SVG renderer as `bobina preview`), the listing and the diagnostics, each one
// highlighted in the source at its line and column. Everything runs in the page, on the core
// bundle; the bytes can be downloaded as a .bin for the printer.
import { compile, hasErrors, listing, listProfiles, renderSvg, type Diagnostic, type Profile } from 'bobina';

const SAMPLE = `<textAlignCenter>CAFÉ DA ESQUINA
Av. Paulista, 1000 - São Paulo/SP
<textAlignLeft>------------------------------------------------
1 Café expresso                             5,00
1 Pão na chapa                              7,50
<textCondensedOn>Itens com desconto não acumulam<textCondensedOff>
------------------------------------------------
<textAlignRight>Total R$ 12,50
<textAlignCenter><qrcode>https://example.com/nfce?p=4223111234|2|1</qrcode>
Obrigado e até logo!
<paperCutPartial>`;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const source = $<HTMLTextAreaElement>('conteudo');
const backdrop = $<HTMLDivElement>('backdrop');
const printerSelect = $<HTMLSelectElement>('printer');
const preview = $<HTMLDivElement>('preview');
const listingView = $<HTMLPreElement>('listing');
const diagnosticsView = $<HTMLUListElement>('diagnostics');
const status = $<HTMLSpanElement>('status');
const download = $<HTMLButtonElement>('download');

const profiles: readonly Profile[] = listProfiles();
let bytes: Uint8Array = new Uint8Array();

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The source with each diagnostic's span wrapped in a <mark> (drawn behind the textarea). */
function highlighted(text: string, diagnostics: readonly Diagnostic[]): string {
  let html = '';
  let at = 0;
  for (const d of diagnostics) {
    const start = Math.max(at, d.span.start.offset);
    // An empty span (an insertion point) still shows: one character wide.
    const end = Math.min(text.length, Math.max(d.span.end.offset, start + 1));
    if (end <= start) continue;
    html += escapeHtml(text.slice(at, start));
    html += `<mark class="${d.severity}" data-code="${d.code}">${escapeHtml(text.slice(start, end))}</mark>`;
    at = end;
  }
  // A final newline needs something after it, or the backdrop is a line shorter than the textarea.
  return html + escapeHtml(text.slice(at)) + '\n';
}

function showDiagnostics(diagnostics: readonly Diagnostic[]): void {
  diagnosticsView.replaceChildren(
    ...diagnostics.map((d) => {
      const item = document.createElement('li');
      item.className = d.severity;
      item.dataset.code = d.code;
      item.dataset.line = String(d.span.start.line);
      item.dataset.column = String(d.span.start.column);
      const where = document.createElement('a');
      where.href = '#';
      where.textContent = `${d.span.start.line}:${d.span.start.column}`;
      where.title = 'select it in the source';
      where.addEventListener('click', (event) => {
        event.preventDefault();
        source.focus();
        source.setSelectionRange(d.span.start.offset, Math.max(d.span.end.offset, d.span.start.offset + 1));
      });
      const code = document.createElement('code');
      code.textContent = d.code;
      item.append(where, `${d.severity} `, code, `: ${d.message}`);
      return item;
    }),
  );
  if (diagnostics.length === 0) diagnosticsView.innerHTML = '<li class="none">none</li>';
}

function update(): void {
  const conteudo = source.value;
  const printer = profiles[Number(printerSelect.value)]!;
  const started = performance.now();
  const result = compile(conteudo, { printer });
  const ms = performance.now() - started;
  bytes = result.bytes;
  backdrop.innerHTML = highlighted(conteudo, result.diagnostics);
  backdrop.scrollTop = source.scrollTop;
  showDiagnostics(result.diagnostics);
  preview.innerHTML = renderSvg(bytes, { printer });
  listingView.textContent = listing(conteudo, { printer }).listing;
  const errors = hasErrors(result.diagnostics);
  status.textContent = `${bytes.length} bytes · ${result.diagnostics.length} diagnostics${errors ? ' (errors: do not print)' : ''} · compiled in ${ms.toFixed(1)} ms`;
  download.dataset.errors = String(errors);
}

let pending = 0;
function schedule(): void {
  if (pending) return;
  pending = requestAnimationFrame(() => {
    pending = 0;
    update();
  });
}

for (const [i, p] of profiles.entries()) printerSelect.add(new Option(`${p.id} ${p.code} — ${p.printer}`, String(i), false, p.code === 'MAKER5T20'));
source.value = SAMPLE;
source.addEventListener('input', schedule);
source.addEventListener('scroll', () => (backdrop.scrollTop = source.scrollTop));
printerSelect.addEventListener('change', update);
download.addEventListener('click', () => {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/octet-stream' }));
  link.download = `receipt-${profiles[Number(printerSelect.value)]!.code}.bin`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
});
update();
