// The messages between the playground page and its compile worker: the page sends the text, the
// worker answers with the compile result and the preview drawn mark by mark (each at y = 0, with
// its place), and, when the page is idle, the listing.
import type { Diagnostic } from 'bobina';

/** A template the page offers in its menu (its index in listProfiles()). */
export interface ProfileEntry {
  index: number;
  code: string;
  label: string;
}

/** One preview mark: its SVG elements drawn at y = 0, and the y it goes to. */
export interface PreviewMark {
  y: number;
  svg: string;
}

/** The preview SVG: the document around the marks (svgParts' head and tail), and the marks. */
export interface PreviewParts {
  head: string;
  tail: string;
  marks: PreviewMark[];
}

export type ToWorker =
  | { type: 'compile'; seq: number; conteudo: string; printer: number }
  | { type: 'listing'; seq: number };

export type FromWorker =
  | { type: 'profiles'; profiles: ProfileEntry[] }
  | { type: 'result'; seq: number; bytes: Uint8Array; diagnostics: Diagnostic[]; errors: boolean; preview: PreviewParts; compileMs: number }
  | { type: 'listing'; seq: number; listing: string };
