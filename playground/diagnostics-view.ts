// The diagnostics as a list, each entry selecting its span in the source (backdrop.ts draws them
// behind the editor's text).
import type { Diagnostic } from 'bobina';

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
