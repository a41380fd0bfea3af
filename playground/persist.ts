// Keeping the receipt: in localStorage across reloads, and in a link to share (the URL hash holds
// the text, deflated and base64url-encoded, and the template's code). Opening a link shows its
// text even when this browser has another one saved; the first edit drops the hash from the
// address bar, so a reload then shows the edited text.

const TEXT_KEY = 'bobina.playground.conteudo';
const PRINTER_KEY = 'bobina.playground.printer';

export interface Saved {
  conteudo: string;
  /** The template's code (MAKER5T20), not its index: a link outlives the menu's order. */
  printer?: string;
}

export function loadSaved(): Saved | undefined {
  try {
    const conteudo = localStorage.getItem(TEXT_KEY);
    if (conteudo === null) return undefined;
    return { conteudo, printer: localStorage.getItem(PRINTER_KEY) ?? undefined };
  } catch {
    return undefined; // storage disabled: the page still works, it only forgets
  }
}

/** False when the browser refuses (storage disabled, or the text, with its images, is past the quota). */
export function save({ conteudo, printer }: Saved): boolean {
  try {
    localStorage.setItem(TEXT_KEY, conteudo);
    if (printer) localStorage.setItem(PRINTER_KEY, printer);
    return true;
  } catch {
    return false;
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes.slice()]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The hash of a link that opens this text: `#p=CODE&z=…` (deflate-raw), or `&t=…` where the browser cannot deflate. */
export async function linkHash({ conteudo, printer }: Saved): Promise<string> {
  const params = new URLSearchParams();
  if (printer) params.set('p', printer);
  const utf8 = new TextEncoder().encode(conteudo);
  if (typeof CompressionStream === 'function') params.set('z', toBase64Url(await through(utf8, new CompressionStream('deflate-raw'))));
  else params.set('t', toBase64Url(utf8));
  return `#${params}`;
}

/**
 * The text a link's hash holds; undefined for a hash that holds no text (`#`, or without `z` and
 * `t`); `unreadable` for one that does (a shared link) but does not decode: cut short, or garbled.
 */
export async function fromHash(hash: string): Promise<Saved | 'unreadable' | undefined> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const printer = params.get('p') ?? undefined;
  try {
    const z = params.get('z');
    const t = params.get('t');
    let utf8: Uint8Array;
    if (z !== null) utf8 = await through(fromBase64Url(z), new DecompressionStream('deflate-raw'));
    else if (t !== null) utf8 = fromBase64Url(t);
    else return undefined;
    return { conteudo: new TextDecoder('utf-8', { fatal: true }).decode(utf8), printer };
  } catch {
    return 'unreadable';
  }
}
