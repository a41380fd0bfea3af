// Building the page's elements: text always goes in as text (never parsed as markup), attributes by
// name (never `style`: the page's policy allows no inline style), listeners as `on<event>` props.
type Child = Node | string | number | null | undefined | false;
type Props = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
}

/**
 * A table with a caption and column headers, in a box that scrolls on its own (and by keyboard: the
 * box takes focus). On a narrow screen the stylesheet shows each row as a card, each cell under its
 * column's name (data-label); the explicit roles keep it a table for screen readers, which a table
 * displayed as blocks would otherwise stop being.
 */
export function table(caption: string, headers: readonly string[], body: HTMLTableSectionElement): HTMLElement {
  body.setAttribute('role', 'rowgroup');
  return h('div', { class: 'table-box', role: 'region', 'aria-label': caption, tabindex: 0 },
    h('table', { role: 'table' }, h('caption', {}, caption),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, ...headers.map((t) => h('th', { scope: 'col', role: 'columnheader' }, t)))), body));
}

/** A row's roles and each cell's column name, from the table's header row. */
function label(tr: HTMLTableRowElement, body: HTMLTableSectionElement): void {
  const heads = (body.parentElement as HTMLTableElement | null)?.tHead?.rows[0]?.cells;
  tr.setAttribute('role', 'row');
  [...tr.cells].forEach((cell, i) => {
    cell.setAttribute('role', cell.tagName === 'TH' ? 'rowheader' : 'cell');
    const name = heads?.[i]?.textContent;
    if (name) cell.dataset.label = name;
  });
}

/**
 * Puts `rows` into `body` by key, replacing only the rows whose content changed: a row that is
 * the same keeps its elements, so the focus on one of its buttons or links survives a refresh.
 */
export function syncRows(body: HTMLTableSectionElement, rows: readonly { key: string; sig: string; build: () => HTMLTableRowElement }[]): void {
  const old = new Map<string, HTMLTableRowElement>();
  for (const tr of [...body.rows]) old.set(tr.dataset.key ?? '', tr);
  let cursor: ChildNode | null = body.firstChild;
  for (const row of rows) {
    const kept = old.get(row.key);
    let tr: HTMLTableRowElement;
    if (kept && kept.dataset.sig === row.sig) {
      tr = kept;
      old.delete(row.key);
    } else {
      tr = row.build();
      label(tr, body);
      tr.dataset.key = row.key;
      tr.dataset.sig = row.sig;
      if (kept) {
        if (cursor === kept) cursor = kept.nextSibling;
        kept.remove();
        old.delete(row.key);
      }
    }
    if (tr === cursor) cursor = cursor.nextSibling;
    else body.insertBefore(tr, cursor);
  }
  for (const tr of old.values()) tr.remove();
}

/** Text read out by screen readers (the page's one polite live region). */
export function announce(text: string): void {
  const live = document.getElementById('live')!;
  live.textContent = '';
  // A fresh text node after a clear is read out even when it repeats the last one.
  setTimeout(() => (live.textContent = text), 50);
}
