// The tag table: every recognised tag name and the AST command it becomes.
// Adding a tag is one entry here (plus the lowering of its command and a fixture).

export type CommandName =
  | 'alignLeft'
  | 'alignCenter'
  | 'alignRight'
  | 'condensedOn'
  | 'condensedOff'
  | 'cutFull'
  | 'cutPartial'
  | 'drawerOpen'
  | 'feed';

/** Documented tags (spec §4.4) plus the project's extensions (`cashDrawerOpen`, `paperFeed`). */
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
});

/** The container tag, whose content is a payload rather than text. */
export const QRCODE_TAG = 'qrcode';

const lowerCaseNames = new Map(
  [...Object.keys(TAGS), QRCODE_TAG].map((name) => [name.toLowerCase(), name]),
);

/** A known tag name differing only in case, for "did you mean" messages. */
export function suggestTag(name: string): string | undefined {
  return lowerCaseNames.get(name.toLowerCase());
}
