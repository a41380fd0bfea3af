// The domain values the repositories take and return (see repositories.ts for the interface).
// Plain data: no backend types, no HTTP shapes; the routes turn them into responses.
import type { Diagnostic } from '../../index.js';

export interface MetadataEntry {
  key: string;
  value: string;
}

/** A partner account (a row of `bobina users`): the owner of terminals, credentials and jobs. */
export interface Account {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  metadata: MetadataEntry[];
  roles: string[];
  createdAt: Date;
}

export type NewAccount = Omit<Account, 'id' | 'createdAt'>;

/**
 * Who a request acts for, as authentication found it. Every read and write is scoped to
 * `accountId`; a terminal principal (the terminal's own credential, issued by the delivery
 * work) is further limited to that terminal's jobs.
 */
export type Principal =
  | { kind: 'account'; accountId: string }
  | { kind: 'terminal'; accountId: string; terminalId: string };

export interface Terminal {
  accountId: string;
  terminalId: string;
  printerId: number;
  enabled: boolean;
}

/** A long-lived API key as an operator sees it: never the key, only its id and first characters. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  /** The key's first characters (`bob_` and a few more), or null for keys made before prefixes were kept. */
  prefix: string | null;
  createdAt: Date;
}

export interface NewApiKey {
  accountId: string;
  name: string;
  keyHash: string;
  prefix: string;
}

export interface TokenPair {
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

export interface NewIntention {
  accountId: string;
  referencia: string | null;
  conteudo: string;
  terminalId: string | null;
  impressoraId: number;
  codigoImpressora: string;
  aguardarClienteIniciarImpressao: boolean;
  status: string;
  bytes: Uint8Array;
  diagnostics: Diagnostic[];
  createdAt: Date;
}

export interface Intention extends NewIntention {
  id: number;
}

/** The first answer given for an Idempotency-Key, replayed byte for byte for the same request. */
export interface IdempotentAnswer {
  requestHash: string;
  statusCode: number;
  body: string;
}

/** A failed-login counter in its current window (keys are opaque: the policy in auth/login-limits.ts names them). */
export interface AttemptCounter {
  key: string;
  failures: number;
  windowStart: Date;
}

/** A uniqueness rule refused the write (an e-mail already registered, an Idempotency-Key already used). */
export class DuplicateError extends Error {
  override name = 'DuplicateError';
}

// The interface itself lives in repositories.ts; re-exported so `Store` is found beside its values.
export type { Repositories, Store } from './repositories.js';
