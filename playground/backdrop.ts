// The diagnostics drawn behind the editor's text: the source mirrored line by line, each span
// wrapped in a <mark> at its line and column. One <div> per source line, reused when its content
// is the same, so a keystroke re-lays out one line, not the whole receipt.

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export interface Span {
  severity: string;
  code: string;
  start: number;
  end: number;
}

/** Each source line as HTML, diagnostics' spans as <mark>s (a span over several lines is marked on each). */
export function highlightedLines(text: string, spans: readonly Span[]): string[] {
  let html = '';
  let at = 0;
  for (const d of spans) {
    const start = Math.max(at, d.start);
    // An empty span (an insertion point) still shows: one character wide.
    const end = Math.min(text.length, Math.max(d.end, start + 1));
    if (end <= start) continue;
    const open = `<mark class="${d.severity}" data-code="${d.code}">`;
    html += escapeHtml(text.slice(at, start)) + open + escapeHtml(text.slice(start, end)).replace(/\n/g, `</mark>\n${open}`) + '</mark>';
    at = end;
  }
  return (html + escapeHtml(text.slice(at))).split('\n');
}

interface Line {
  html: string;
  el: HTMLDivElement;
}

export class Backdrop {
  private lines: Line[] = [];

  constructor(private readonly host: HTMLElement) {}

  update(text: string, spans: readonly Span[]): void {
    const pool = new Map<string, Line[]>();
    for (const line of this.lines) {
      const list = pool.get(line.html);
      if (list) list.push(line);
      else pool.set(line.html, [line]);
    }
    const next: { html: string; el?: HTMLDivElement }[] = highlightedLines(text, spans).map((html) => pool.get(html)?.shift() ?? { html });
    for (const list of pool.values()) for (const line of list) line.el.remove();
    let cursor = this.host.firstChild;
    for (const line of next) {
      const el = (line.el ??= document.createElement('div'));
      // An empty line still takes a line's height, as in the textarea.
      if (!el.firstChild) el.innerHTML = line.html || '<br>';
      if (el === cursor) cursor = cursor.nextSibling;
      else this.host.insertBefore(el, cursor);
    }
    this.lines = next as Line[];
  }
}
