// The fleet view's cursor (GET /Terminal/GetAll's `cursor`, `proximoCursor`): the previous page's
// last terminal id, as an opaque base64url string. Keyset paging in terminal-id order, as the job
// list's cursor (jobs/list-cursor.ts): a terminal added meanwhile never shifts a page.
import { invalidCursor } from '../paging.js';

/** The longest cursor taken (a terminal id of up to 1,536 bytes of UTF-8). */
export const CURSOR_MAX = 2048;

export function encodeTerminalCursor(terminalId: string): string {
  return Buffer.from(terminalId, 'utf8').toString('base64url');
}

/** The terminal id a cursor names; 400 invalid-request for anything this service did not hand out. */
export function decodeTerminalCursor(cursor: string): string {
  let id: string | undefined;
  if (/^[A-Za-z0-9_-]+$/.test(cursor) && cursor.length <= CURSOR_MAX) {
    try {
      id = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(cursor, 'base64url'));
    } catch {
      id = undefined;
    }
  }
  // A cursor this service wrote reads back to itself (no stray bits, no lone padding).
  if (!id || encodeTerminalCursor(id) !== cursor) throw invalidCursor();
  return id;
}
