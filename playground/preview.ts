// The preview, redrawn incrementally: each mark (a printed line, an image, a cut…) is one <g> moved
// to its y, keyed by its SVG drawn at y = 0, and only the marks within sight of the preview's
// scroll box (a box-height above and below) are in the document. A keystroke that changes one line
// replaces that one <g>; lines that only move (a line added above them) get a new transform; the
// rest is untouched, so a repaint costs the same on a 30-line and a 3,000-line receipt.
import type { PreviewMark, PreviewParts } from './protocol.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

interface Placed {
  key: string;
  y: number;
  el: SVGGElement;
}

const translate = (y: number) => `translate(0 ${y})`;

/** SVG markup parsed into elements (an HTML <template> parses <svg> as SVG). */
function parseSvg(markup: string): SVGSVGElement {
  const template = document.createElement('template');
  template.innerHTML = markup;
  return template.content.querySelector('svg')!;
}

export class Preview {
  private root: SVGSVGElement | undefined;
  /** Holds the marks, with the transform of the page's own drawing group. */
  private readonly layer = document.createElementNS(SVG_NS, 'g');
  private head = '';
  private placed: Placed[] = [];
  private marks: PreviewMark[] = [];
  private scheduled = 0;

  constructor(private readonly host: HTMLElement) {
    this.layer.setAttribute('class', 'marks');
    host.addEventListener('scroll', () => this.soon(), { passive: true });
    new ResizeObserver(() => this.soon()).observe(host);
  }

  /** Draws a result, touching only what changed; returns how many marks it had to create. */
  update(parts: PreviewParts): number {
    if (parts.head !== this.head) this.frame(parts);
    this.marks = parts.marks;
    this.host.dataset.marks = String(parts.marks.length);
    return this.draw(this.visible());
  }

  private soon(): void {
    this.scheduled ||= requestAnimationFrame(() => {
      this.scheduled = 0;
      this.draw(this.visible());
    });
  }

  /** The marks in sight of the scroll box, or near it (one box-height above and below). */
  private visible(): PreviewMark[] {
    if (!this.root) return [];
    const box = this.host.getBoundingClientRect();
    const page = this.root.getBoundingClientRect();
    const scale = page.width / (this.root.viewBox.baseVal.width || page.width || 1);
    const origin = this.layer.transform.baseVal.consolidate()?.matrix.f ?? 0;
    const top = (box.top - box.height - page.top) / scale - origin;
    const bottom = (box.bottom + box.height - page.top) / scale - origin;
    // A mark reaches down to the next one (a QR code's height is the gap below its y).
    return this.marks.filter((m, i) => m.y <= bottom && Math.max(m.y, this.marks[i + 1]?.y ?? Infinity) >= top);
  }

  /** Puts exactly `marks` in the document, reusing every <g> drawn the same; returns how many it created. */
  private draw(marks: readonly PreviewMark[]): number {
    // Reuse a mark drawn the same, in order (identical lines, rules say, keep their order).
    const pool = new Map<string, Placed[]>();
    for (const p of this.placed) {
      const list = pool.get(p.key);
      if (list) list.push(p);
      else pool.set(p.key, [p]);
    }
    const next: { key: string; y: number; el?: SVGGElement }[] = marks.map(({ svg, y }) => {
      const reused = pool.get(svg)?.shift();
      return reused ? { ...reused, y } : { key: svg, y };
    });
    for (const list of pool.values()) for (const p of list) p.el.remove();
    const fresh = next.filter((p) => !p.el);
    if (fresh.length > 0) {
      const made = parseSvg(`<svg xmlns="${SVG_NS}">${fresh.map((p) => `<g transform="${translate(p.y)}">${p.key}</g>`).join('')}</svg>`);
      const elements = [...made.children] as SVGGElement[];
      fresh.forEach((p, i) => (p.el = elements[i]!));
    }
    // Into document order, moving nothing that is already in place.
    let cursor = this.layer.firstChild;
    const placed: Placed[] = [];
    for (const p of next as Placed[]) {
      if (p.el === cursor) cursor = cursor.nextSibling;
      else this.layer.insertBefore(p.el, cursor);
      if (p.el.getAttribute('transform') !== translate(p.y)) p.el.setAttribute('transform', translate(p.y));
      placed.push(p);
    }
    this.placed = placed;
    return fresh.length;
  }

  /** The document around the marks (size, paper, title): rebuilt whole, it is a handful of elements. */
  private frame(parts: PreviewParts): void {
    this.head = parts.head;
    const fresh = parseSvg(parts.head + parts.tail);
    const group = fresh.lastElementChild!;
    for (const name of ['transform', 'shape-rendering']) {
      const value = group.getAttribute(name);
      if (value === null) this.layer.removeAttribute(name);
      else this.layer.setAttribute(name, value);
    }
    if (!this.root) {
      this.root = fresh;
      this.root.append(this.layer);
      this.host.replaceChildren(this.root);
      return;
    }
    for (const child of [...this.root.children]) if (child !== this.layer) child.remove();
    this.layer.before(...fresh.children);
    for (const { name } of [...this.root.attributes]) if (!fresh.hasAttribute(name)) this.root.removeAttribute(name);
    for (const { name, value } of [...fresh.attributes]) this.root.setAttribute(name, value);
  }
}
