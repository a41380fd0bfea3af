// The toolbar built from tools.ts: one labelled button per tool (a menu beside it where it has
// variants), grouped; each inserts at the editor's cursor through the browser's own editing, so
// Ctrl+Z undoes it and the editor hears an input event like any typing.
import { TOOL_GROUPS, type Insertion, type Tool } from './tools.js';

/** Replaces the editor's selection with the insertion and selects what it says. */
export function insertAt(area: HTMLTextAreaElement, insertion: Insertion): void {
  const start = area.selectionStart;
  const end = area.selectionEnd;
  area.focus();
  area.setSelectionRange(start, end);
  // execCommand keeps the undo history and fires `input`; where a browser refuses it, edit directly.
  if (!document.execCommand('insertText', false, insertion.text)) {
    area.setRangeText(insertion.text, start, end, 'end');
    area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: insertion.text }));
  }
  area.setSelectionRange(start + insertion.from, start + insertion.to);
}

const selected = (area: HTMLTextAreaElement) => area.value.slice(area.selectionStart, area.selectionEnd);

/** A PNG file as a data: URI, or undefined for any other kind of file. */
function readPng(file: File): Promise<string | undefined> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' && reader.result.startsWith('data:image/png;base64,') ? reader.result : undefined);
    reader.onerror = () => resolve(undefined);
    reader.readAsDataURL(file);
  });
}

/** A tool's button, with its menu beside it (the two stay together when the toolbar wraps). */
function control(tool: Tool, area: HTMLTextAreaElement, say: (message: string) => void): HTMLElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.id = `tool-${tool.id}`;
  button.textContent = tool.label;
  button.setAttribute('aria-label', tool.name);
  button.title = tool.keys ? `${tool.name} (${tool.keys.replace('Control', 'Ctrl')})` : tool.name;
  if (tool.keys) button.setAttribute('aria-keyshortcuts', tool.keys);
  const out: HTMLElement[] = [];
  let menu: HTMLSelectElement | undefined;
  if (tool.choice) {
    menu = document.createElement('select');
    menu.id = `tool-${tool.id}-choice`;
    menu.setAttribute('aria-label', tool.choice.name);
    for (const [value, text] of tool.choice.options) menu.add(new Option(text, value));
  }
  if (tool.file) {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = tool.file;
    input.id = `tool-${tool.id}-file`;
    input.hidden = true;
    input.addEventListener('change', async () => {
      const file = input.files?.[0];
      input.value = '';
      if (!file) return;
      const uri = await readPng(file);
      if (uri) insertAt(area, tool.insert(uri, ''));
      else say(`${file.name} is not a PNG file: <image> takes data:image/png;base64,… URIs`);
    });
    button.addEventListener('click', () => input.click());
    out.push(input);
  } else {
    button.addEventListener('click', () => insertAt(area, tool.insert(selected(area), menu?.value ?? '')));
  }
  const box = document.createElement('span');
  box.className = 'tool';
  box.append(button, ...(menu ? [menu] : []), ...out);
  return box;
}

/** Fills `host` with the tool groups; Ctrl/⌘ + a tool's key in the editor runs it too. */
export function buildToolbar(host: HTMLElement, area: HTMLTextAreaElement, say: (message: string) => void): void {
  for (const group of TOOL_GROUPS) {
    const box = document.createElement('div');
    box.className = 'tool-group';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', group.name);
    for (const tool of group.tools) box.append(control(tool, area, say));
    host.append(box);
  }
  const byKey = new Map(TOOL_GROUPS.flatMap((g) => g.tools).filter((t) => t.keys).map((t) => [t.keys!.split('+')[1]!.toLowerCase(), t]));
  area.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const tool = byKey.get(event.key.toLowerCase());
    if (!tool) return;
    event.preventDefault();
    insertAt(area, tool.insert(selected(area), ''));
  });
}
