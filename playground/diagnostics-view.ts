// The diagnostics shown twice: as a list (each entry selects its span in the source), and as marks
// behind the editor's text at their line and column.
import type { Diagnostic } from 'bobina';

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The source with each diagnostic's span wrapped in a <mark> (drawn behind the textarea). */
export function highlighted(text: string, diagnostics: readonly Diagnostic[]): string {
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

export function showDiagnostics(list: HTMLUListElement, source: HTMLTextAreaElement, diagnostics: readonly Diagnostic[]): void {
  list.replaceChildren(
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
  if (diagnostics.length === 0) list.innerHTML = '<li class="none">none</li>';
}
