// The toolbar's table: each button, the tag text it inserts at the cursor (tag names and attributes
// as issue 21 §1 writes them), and what is selected afterwards. Pairs (bold, underline…) wrap the
// selection; tags with data select their sample data, so typing replaces it.

/** The text to insert, and the part of it to select afterwards (from === to: the caret). */
export interface Insertion {
  text: string;
  from: number;
  to: number;
}

export interface Tool {
  id: string;
  /** The button's text. */
  label: string;
  /** Its accessible name, which says what it inserts. */
  name: string;
  /** A keyboard shortcut in the editor (aria-keyshortcuts form), if it has one. */
  keys?: string;
  /** A menu beside the button choosing its variant (the barcode type, the text size). */
  choice?: { name: string; options: readonly (readonly [value: string, text: string])[] };
  /** A file to pick first (the image): the insertion then gets the file as a data: URI. */
  file?: string;
  insert(selection: string, choice: string): Insertion;
}

export interface ToolGroup {
  name: string;
  tools: readonly Tool[];
}

const at = (text: string): Insertion => ({ text, from: text.length, to: text.length });

/** `open` + the selection + `close`: the selection stays selected, or the caret goes between. */
const wrap = (open: string, close: string) => (selection: string): Insertion => ({ text: open + selection + close, from: open.length, to: open.length + selection.length });

/** `open` + the selection (or a sample, selected) + `close`. */
const around = (open: string, sample: string, close: string, selection: string): Insertion => {
  const inner = selection || sample;
  return { text: open + inner + close, from: open.length, to: open.length + inner.length };
};

const command = (id: string, label: string, tag: string): Tool => ({ id, label, name: `insert <${tag}>`, insert: () => at(`<${tag}>`) });

const pair = (id: string, label: string, on: string, off: string, keys?: string): Tool => ({
  id,
  label,
  name: `wrap the selection in <${on}> … <${off}>`,
  ...(keys ? { keys } : {}),
  insert: wrap(`<${on}>`, `<${off}>`),
});

/** Valid sample data per symbology (EAN/UPC without their check digit: the compiler computes it). */
export const BARCODE_SAMPLES: Readonly<Record<string, string>> = {
  ean13: '789100031550',
  ean8: '1234567',
  upca: '01234567890',
  code39: 'BOBINA-39',
  code128: 'Bobina 128',
  itf: '1234567890',
  codabar: 'A40156B',
};

export const TOOL_GROUPS: readonly ToolGroup[] = [
  {
    name: 'Alignment',
    tools: [command('align-left', 'Left', 'textAlignLeft'), command('align-center', 'Center', 'textAlignCenter'), command('align-right', 'Right', 'textAlignRight')],
  },
  {
    name: 'Text style',
    tools: [
      pair('bold', 'Bold', 'textBoldOn', 'textBoldOff', 'Control+B'),
      pair('underline', 'Underline', 'textUnderlineOn', 'textUnderlineOff', 'Control+U'),
      pair('invert', 'Invert', 'textInvertOn', 'textInvertOff'),
      pair('condensed', 'Condensed', 'textCondensedOn', 'textCondensedOff'),
      {
        id: 'size',
        label: 'Size',
        name: 'wrap the selection in <textSize width height> … <textSize>',
        choice: { name: 'text size (width × height)', options: ['2×2', '2×1', '1×2', '3×3', '4×4', '8×8'].map((s) => [s, s] as const) },
        insert: (selection, size) => {
          const [w, h] = size.split('×');
          return wrap(`<textSize width="${w}" height="${h}">`, '<textSize>')(selection);
        },
      },
    ],
  },
  {
    name: 'Codes and images',
    tools: [
      {
        id: 'barcode',
        label: 'Barcode',
        name: 'insert a <barcode> (type from the menu beside it)',
        choice: { name: 'barcode type', options: Object.keys(BARCODE_SAMPLES).map((t) => [t, t] as const) },
        insert: (selection, type) => around(`<barcode type="${type}" height="80" module="2" text="below">`, BARCODE_SAMPLES[type] ?? '', '</barcode>', selection),
      },
      { id: 'qrcode', label: 'QR', name: 'insert a <qrcode size ecc>', insert: (selection) => around('<qrcode size="5" ecc="M">', 'https://example.com', '</qrcode>', selection) },
      { id: 'image', label: 'Image…', name: 'insert an <image> from a PNG file', file: 'image/png', insert: (dataUri) => at(`<image src="${dataUri}"/>`) },
    ],
  },
  {
    name: 'Layout',
    tools: [
      {
        id: 'row',
        label: 'Row',
        name: 'insert a <row> of two <cell>s',
        insert: (selection) => around('<row><cell width="*">', 'Item', '</cell><cell width="12" align="right">R$ 0,00</cell></row>', selection),
      },
      { id: 'rule', label: 'Rule', name: 'insert a <rule/>', insert: () => at('<rule/>') },
      command('feed', 'Feed', 'paperFeed'),
    ],
  },
  {
    name: 'Printer',
    tools: [command('cut-full', 'Cut', 'paperCutFull'), command('cut-partial', 'Partial cut', 'paperCutPartial'), command('drawer', 'Drawer', 'cashDrawerOpen')],
  },
];
