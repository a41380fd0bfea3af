// What the lists paged by an opaque cursor share (GET /IntencaoImpressao/GetAll, GET /Terminal/GetAll):
// the page size a request asks for, checked against the list's bounds, and the answer to a cursor
// this service did not hand out.
import { Problem } from './errors.js';

/** `limite` as asked (the list's default when absent); 400 invalid-request outside 1..max. */
export function pageSize(limite: string | undefined, page: { default: number; max: number }): number {
  const limit = limite === undefined ? page.default : Number(limite);
  if (limit < 1 || limit > page.max) throw new Problem('invalid-request', { errors: [{ path: '/limite', message: `must be from 1 to ${page.max}` }] }, `querystring/limite must be from 1 to ${page.max}`);
  return limit;
}

/** 400 invalid-request: not a cursor this service handed out. */
export const invalidCursor = () =>
  new Problem('invalid-request', { errors: [{ path: '/cursor', message: 'not a cursor this service handed out (proximoCursor)' }] }, 'querystring/cursor is not a valid cursor');
