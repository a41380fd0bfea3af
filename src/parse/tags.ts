// The tag table: every recognised tag name, the AST command it becomes, and which tags are the
// partner's own. Adding a command tag is one entry here (plus the lowering of its command and a
// fixture); tags with attributes or content are built in elements.ts.
import type { RawDiagnostic } from '../diagnostics.js';

export type CommandName =
  | 'alignLeft'
  | 'alignCenter'
  | 'alignRight'
  | 'condensedOn'
  | 'condensedOff'
  | 'cutFull'
  | 'cutPartial'
  | 'drawerOpen'
  | 'feed'
  | 'boldOn'
  | 'boldOff'
  | 'underlineOn'
  | 'underlineOff'
  | 'invertOn'
  | 'invertOff';

/** Documented tags (spec §4.4) plus the project's extensions: drawer, feed and the text styles. */
export const TAGS: Readonly<Record<string, CommandName>> = Object.freeze({
  textAlignLeft: 'alignLeft',
  textAlignCenter: 'alignCenter',
  textAlignRight: 'alignRight',
  textCondensedOn: 'condensedOn',
  textCondensedOff: 'condensedOff',
  paperCutFull: 'cutFull',
  paperCutPartial: 'cutPartial',
  cashDrawerOpen: 'drawerOpen',
  paperFeed: 'feed',
  textBoldOn: 'boldOn',
  textBoldOff: 'boldOff',
  textUnderlineOn: 'underlineOn',
  textUnderlineOff: 'underlineOff',
  textInvertOn: 'invertOn',
  textInvertOff: 'invertOff',
});

/** The container tag, whose content is a payload rather than text. */
export const QRCODE_TAG = 'qrcode';

/** Tags that make a node of their own from attributes or content (elements.ts). */
export const ELEMENT_TAGS = Object.freeze([QRCODE_TAG, 'barcode', 'image', 'textSize', 'row', 'cell', 'rule'] as const);
export type ElementTag = (typeof ELEMENT_TAGS)[number];

/** Tags closed by a closing tag of their own, in the AST builder (qrcode is closed by the lexer). */
export const CONTAINER_TAGS: ReadonlySet<string> = new Set(['barcode', 'row', 'cell']);

/**
 * The partner's eight tags (spec §4.4): with `tags: 'partner'` the only ones that are commands;
 * every other tag then prints as written, with a warning.
 */
export const PARTNER_TAGS: ReadonlySet<string> = new Set([
  'textAlignLeft',
  'textAlignCenter',
  'textAlignRight',
  'textCondensedOn',
  'textCondensedOff',
  'paperCutFull',
  'paperCutPartial',
  QRCODE_TAG,
]);

/** Which tags are commands: all of them (the default), or only the partner's eight. */
export type TagSet = 'all' | 'partner';

const lowerCaseNames = new Map([...Object.keys(TAGS), ...ELEMENT_TAGS].map((name) => [name.toLowerCase(), name]));

/** A known tag name differing only in case, for "did you mean" messages. */
export function suggestTag(name: string): string | undefined {
  return lowerCaseNames.get(name.toLowerCase());
}

/** `unknown tag <b> is printed as text`, with a hint when the name is a known one mis-cased or closed. */
export function unknownTag(image: string, name: string, closing: boolean, start: number, end: number): RawDiagnostic {
  const known = suggestTag(name);
  let hint = '';
  if (known && closing && !CONTAINER_TAGS.has(known) && known !== QRCODE_TAG) hint = `; <${known}> takes no closing tag`;
  else if (known && known !== name) hint = `; did you mean <${known}>?`;
  return { code: 'parse/unknown-tag', message: `unknown tag ${image} is printed as text${hint}`, start, end };
}
