// What an Insert request is, once validated: its known fields in the schema's order, for the
// Idempotency-Key hash (key order, unknown fields and null-versus-absent change nothing), and the
// check that its text is well-formed Unicode, because SQLite keeps text as UTF-8 and would store a
// lone surrogate as U+FFFD: what Insert acknowledges must be exactly what GetById returns.
import { sha256 } from '../auth/secrets.js';
import { Problem } from '../errors.js';
import { InsertBody } from '../schemas/intentions.js';
import { loneSurrogate } from '../well-formed.js';

const FIELDS = Object.keys(InsertBody.properties) as (keyof InsertBody)[];

/** Fields added after keys were first stored join the hash only when given, so a stored key's hash stays what it was. */
const LATER: ReadonlySet<keyof InsertBody> = new Set(['urlCallback']);

export function insertRequestHash(body: InsertBody): string {
  const fields = FIELDS.filter((field) => !LATER.has(field) || (body[field] ?? null) !== null);
  return sha256(JSON.stringify(fields.map((field) => [field, body[field] ?? null])));
}

/** Throws 400 invalid-request naming the first string field with a lone surrogate. */
export function assertWellFormed(body: InsertBody): void {
  for (const field of FIELDS) {
    const value = body[field];
    if (typeof value !== 'string') continue;
    const lone = loneSurrogate(value);
    if (!lone) continue;
    throw new Problem(
      'invalid-request',
      { errors: [{ path: `/${field}`, message: `lone surrogate ${lone.unit} at offset ${lone.offset}: not well-formed Unicode, so it cannot be stored as sent` }] },
      `body/${field} is not well-formed Unicode`,
    );
  }
}
