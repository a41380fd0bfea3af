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

const RANK: Readonly<Record<string, number>> = { error: 3, warning: 2, info: 1 };

/** Of spans over one stretch of text, the one shown: the most severe, then the narrowest (the one inside), then the first. */
const shownOf = (over: readonly Span[]) =>
  over.reduce<Span | undefined>((best, s) => {
    if (!best) return s;
    const by = (RANK[s.severity] ?? 0) - (RANK[best.severity] ?? 0) || best.end - best.start - (s.end - s.start);
    return by > 0 ? s : best;
  }, undefined);

/**
 * Each source line as HTML, diagnostics' spans as <mark>s (a span over several lines is marked on
 * each). Spans may nest or overlap (an error inside a tag that also has an info): each stretch of
 * text is marked with the span shown there (shownOf), so every span is marked at its own place.
 */
export function highlightedLines(text: string, spans: readonly Span[]): string[] {
  // An empty span (an insertion point) still shows: one character wide.
  const marked = spans
    .map((d) => {
      const start = Math.min(Math.max(0, d.start), text.length);
      return { ...d, start, end: Math.min(text.length, Math.max(d.end, start + 1)) };
    })
    .filter((d) => d.end > d.start);
  const edges = [...new Set([0, text.length, ...marked.flatMap((d) => [d.start, d.end])])].sort((a, b) => a - b);
  const byStart = [...marked].sort((a, b) => a.start - b.start);
  let next = 0;
  let active: Span[] = [];
  /** Stretches of text, each with the span shown over it (none: plain), the same span's run as one. */
  const runs: Array<{ d: Span | undefined; text: string }> = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const [from, to] = [edges[i]!, edges[i + 1]!];
    active = active.filter((d) => d.end > from);
    while (next < byStart.length && byStart[next]!.start === from) active.push(byStart[next++]!);
    const d = shownOf(active);
    const last = runs[runs.length - 1];
    if (last && last.d === d) last.text += text.slice(from, to);
    else runs.push({ d, text: text.slice(from, to) });
  }
  let html = '';
  for (const { d, text: piece } of runs) {
    if (!d) html += escapeHtml(piece);
    else {
      const open = `<mark class="${d.severity}" data-code="${d.code}">`;
      html += open + escapeHtml(piece).replace(/\n/g, `</mark>\n${open}`) + '</mark>';
    }
  }
  return html.split('\n');
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
