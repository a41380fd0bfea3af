// A job list's cursor (GetAll's `cursor`, `proximoCursor`): the position of the previous page's last
// row in the list's order, (createdAt, id), as an opaque base64url string. Keyset paging: the next
// page is "the rows after this one", so rows inserted meanwhile (all newer, so before the cursor)
// never shift a page, and no row is shown twice or skipped.
import { invalidCursor } from '../paging.js';

export interface ListPosition {
  createdAt: Date;
  id: number;
}

const SHAPE = /^(\d{1,15})\.(\d{1,15})$/;

export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.createdAt.getTime()}.${p.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; 400 invalid-request for anything this service did not hand out. */
export function decodeCursor(cursor: string): ListPosition {
  const m = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!m) throw invalidCursor();
  return { createdAt: new Date(Number(m[1])), id: Number(m[2]) };
}
