// What every resource's schemas share: the problem body of every error, the error responses of a
// route, how requests are read (unknown fields removed), and the partner's key in the query.
import { Type } from 'typebox';
import { JOB_ID_PATTERN } from '../../delivery/job-id.js';

export const Problem = Type.Object(
  {
    message: Type.String(),
    code: Type.String(),
    requestId: Type.String(),
  },
  { additionalProperties: true, description: 'Every error: a message, a stable code and the request id' },
);

export const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Problem]));

/**
 * Requests are read tolerantly: a field the API does not know is removed during validation
 * (fastify's ajv `removeAdditional` acts on `additionalProperties: false`), so it is never hashed,
 * stored or echoed, however deep it is.
 */
export const ignoreUnknown = { additionalProperties: false } as const;

/** The partner's key, in the query of every printing and webhook route. */
export const KeyQuery = { key: Type.Optional(Type.String({ description: 'Access token or API key (or send Authorization: Bearer)' })) };

/** The next page's cursor of a list paged by an opaque cursor (GetAll of jobs and of terminals). */
export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass it as cursor for the next page; null: this is the last' });

/** An optional field that may also be null. */
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Optional(Type.Union([Type.Null(), t]));

/** A job's id in the query (src/delivery/job-id.ts: the bound the protocol's bodies take too). */
export const JobIdQuery = (description?: string) => Type.String({ pattern: JOB_ID_PATTERN, ...(description ? { description } : {}) });
