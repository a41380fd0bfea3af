// How wide the paper is for the font in force, and how a row's cells share it. Every width the
// layout and the long-line check use comes from fontInForce (the one place that reads the font
// state: condensed or not, and the character width multiplier of <textSize>).
//
// Before: cells [3, 1*, 2*] on 48 columns
// After:  widths [3, 15, 30]
import type { CellNode } from '../parse/ast.js';
import type { Profile } from '../profiles/index.js';
import type { LowerState } from './context.js';

/**
 * Tab stops are this many columns of normal text apart, whatever the font in force: ESC/POS sets its
 * default stops (every 8 characters of font A) at ESC @ and keeps them where they are when the font
 * or the character width changes. The line measure (Font.tabStop) and the preview both use it.
 */
export const TAB_STOP_COLUMNS = 8;

/**
 * How far a tab moves the print position from `used`: to the next stop, `stop` apart (in whatever
 * units `used` is in; TAB_STOP_COLUMNS columns of normal text by default). The rule for tabs, for
 * the line measure and the plain-text template's alignment alike.
 */
export function tabGap(used: number, stop: number = TAB_STOP_COLUMNS): number {
  return stop - (used % stop);
}

export interface Font {
  /** Characters a printed line holds in this font. */
  columns: number;
  /**
   * What one character of this font takes of a line, in units where a whole line is `line`
   * (the same for every font of the profile), so a line mixing fonts is measured exactly.
   */
  cost: number;
  /** A whole line in `cost` units. */
  line: number;
  /** The distance between tab stops in `cost` units (TAB_STOP_COLUMNS of normal text at width 1). */
  tabStop: number;
}

/**
 * The font in force: the profile's normal or condensed columns divided by the width multiplier
 * (1 when the state has none), at least one column.
 */
export function fontInForce(profile: Profile, state: Pick<LowerState, 'condensed'> & { width?: number }): Font {
  const { normal, condensed } = profile.columns;
  const base = state.condensed ? condensed : normal;
  const width = Math.max(1, Math.floor(state.width ?? 1));
  const line = normal * condensed;
  return { columns: Math.max(1, Math.floor(base / width)), cost: width * (line / base), line, tabStop: TAB_STOP_COLUMNS * (line / normal) };
}

/** The font in force in messages: "normal text", "condensed text at width 2". */
export function fontName(state: Pick<LowerState, 'condensed'> & { width?: number }): string {
  const width = Math.max(1, Math.floor(state.width ?? 1));
  return `${state.condensed ? 'condensed' : 'normal'} text${width > 1 ? ` at width ${width}` : ''}`;
}

/**
 * Each cell's width in columns: `N` cells take N, `N*` cells share what is left in proportion to
 * N (the columns a division leaves over go one each to the first share cells). Undefined when the
 * fixed cells alone are wider than the line. A share cell may get 0 columns (the caller decides
 * whether its text can go without).
 */
export function cellWidths(cells: readonly Pick<CellNode, 'width'>[], columns: number): number[] | undefined {
  let fixed = 0;
  let shares = 0;
  for (const { width } of cells) {
    if ('columns' in width) fixed += width.columns;
    else shares += width.share;
  }
  if (fixed > columns) return undefined;
  const left = columns - fixed;
  const widths = cells.map(({ width }) => ('columns' in width ? width.columns : Math.floor((left * width.share) / shares)));
  // (Without share cells the sum is 0 and no cell takes the spare.)
  let spare = left - widths.reduce((sum, w, i) => sum + ('share' in cells[i]!.width ? w : 0), 0);
  for (let i = 0; i < cells.length && spare > 0; i++) {
    if ('share' in cells[i]!.width) {
      widths[i]! += 1;
      spare--;
    }
  }
  return widths;
}
