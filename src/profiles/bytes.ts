// Byte templates from profile data ("1B 64 n", "0A*n", "1D 21 wh") compiled once into a form the
// emitter writes without parsing strings in the hot path.

/**
 * One compiled byte template: fixed bytes, with `n` (param) or `XX*n` (repeat) resolved per use,
 * and for the size command `w` (width − 1), `h` (height − 1) and `wh` ((width − 1) × 16 + height − 1),
 * or `w[A|B|…]` / `h[A|B|…]`: the bytes A for 1, B for 2… (the last for larger sizes), for a printer
 * whose size is an on/off command pair rather than a number (Daruma's ESC SO / DC4: `w[14|1B0E00]`).
 */
export interface ByteTemplate {
  readonly parts: readonly TemplatePart[];
  /** The bytes when the template has no parameter (most commands). */
  readonly fixed: Uint8Array | undefined;
  /** The same bytes as a Latin-1 string (one character a byte), for the emitter's pending text: made on first use. */
  fixedText: string | undefined;
}

type SizeParam = 'w' | 'h' | 'wh';
type TemplatePart =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'param' }
  | { kind: 'repeat'; byte: number }
  | { kind: 'size'; param: SizeParam }
  | { kind: 'choice'; param: 'w' | 'h'; options: readonly Uint8Array[] };

const SIZE_PARAMS: ReadonlySet<string> = new Set<SizeParam>(['w', 'h', 'wh']);

/** `w[14|1B0E00]` → the parameter and one byte string per size, from 1 up ('' is no bytes). */
export function parseChoice(word: string): { param: 'w' | 'h'; options: Uint8Array[] } | undefined {
  const m = /^([wh])\[([0-9A-Fa-f|]*)\]$/.exec(word);
  if (!m) return undefined;
  const options = m[2]!.split('|').map((hex) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16)));
  return { param: m[1] as 'w' | 'h', options };
}

export function compileTemplate(hex: string): ByteTemplate {
  const parts: TemplatePart[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length) parts.push({ kind: 'bytes', bytes: Uint8Array.from(run) });
    run = [];
  };
  for (const word of hex.split(' ')) {
    if (word === 'n') {
      flush();
      parts.push({ kind: 'param' });
    } else if (SIZE_PARAMS.has(word)) {
      flush();
      parts.push({ kind: 'size', param: word as SizeParam });
    } else if (word.endsWith(']')) {
      flush();
      parts.push({ kind: 'choice', ...parseChoice(word)! });
    } else if (word.endsWith('*n')) {
      flush();
      parts.push({ kind: 'repeat', byte: parseInt(word.slice(0, 2), 16) });
    } else {
      run.push(parseInt(word, 16));
    }
  }
  flush();
  const only = parts[0];
  const fixed = parts.length === 0 ? new Uint8Array(0) : parts.length === 1 && only?.kind === 'bytes' ? only.bytes : undefined;
  return { parts, fixed, fixedText: undefined };
}

/** The bytes of a template for parameter `n`, or for a character size of `width` × `height` (each 1–16). */
export function expandTemplate(template: ByteTemplate, n = 0, width = 1, height = 1): Uint8Array {
  if (template.fixed) return template.fixed;
  const out: number[] = [];
  const w = (width - 1) & 0x0f;
  const h = (height - 1) & 0x0f;
  for (const part of template.parts) {
    if (part.kind === 'bytes') out.push(...part.bytes);
    else if (part.kind === 'param') out.push(n & 0xff);
    else if (part.kind === 'size') out.push(part.param === 'w' ? w : part.param === 'h' ? h : (w << 4) | h);
    else if (part.kind === 'choice') out.push(...part.options[Math.min(part.param === 'w' ? w : h, part.options.length - 1)]!);
    else for (let i = 0; i < n; i++) out.push(part.byte);
  }
  return Uint8Array.from(out);
}

/** expandTemplate's bytes as a Latin-1 string (one character a byte). */
export function expandTemplateText(template: ByteTemplate, n = 0, width = 1, height = 1): string {
  if (template.fixedText !== undefined) return template.fixedText;
  // A command is a few bytes: one call makes the string.
  const text = String.fromCharCode.apply(null, expandTemplate(template, n, width, height) as unknown as number[]);
  if (template.fixed) template.fixedText = text;
  return text;
}
