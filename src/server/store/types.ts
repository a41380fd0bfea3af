// The repository interface every storage backend implements (SQLite embedded, PostgreSQL later).
// Methods are async so a networked backend fits the same shape; every read is scoped to a user.
import type { Diagnostic } from '../../index.js';

export interface MetadataEntry {
  key: string;
  value: string;
}

export interface User {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  metadata: MetadataEntry[];
  roles: string[];
}

export interface Terminal {
  userId: string;
  terminalId: string;
  printerId: number;
  enabled: boolean;
}

export interface NewIntention {
  userId: string;
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

/** A stored answer for an Idempotency-Key, replayed verbatim for the same request. */
export interface IdempotentAnswer {
  requestHash: string;
  statusCode: number;
  body: string;
}

export interface Idempotency {
  key: string;
  requestHash: string;
  statusCode: number;
  /** Builds the response body once the intention has its id. */
  body: (intention: Intention) => string;
}

/** Either the new intention, or the answer already stored under the same Idempotency-Key. */
export type InsertOutcome = { intention: Intention; body?: string } | { existing: IdempotentAnswer };

export interface TokenPair {
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

/** Thrown by createUser when the e-mail is already registered. */
export class DuplicateError extends Error {
  override name = 'DuplicateError';
}

export interface Store {
  createUser(user: Omit<User, 'id'>): Promise<User>;
  findUserByEmail(email: string): Promise<User | undefined>;
  findUserById(id: string): Promise<User | undefined>;
  /** Adds or replaces the terminal `terminalId` of a user. */
  putTerminal(terminal: Terminal): Promise<void>;
  findTerminal(userId: string, terminalId: string): Promise<Terminal | undefined>;
  createApiKey(userId: string, name: string, keyHash: string): Promise<void>;
  createTokens(userId: string, tokens: TokenPair): Promise<void>;
  /** The user owning an unexpired access token or an API key with this hash. */
  authenticate(secretHash: string, now: Date): Promise<string | undefined>;
  /** Consumes a refresh token (one use only) and stores the new pair; the user id, or undefined. */
  rotateRefresh(refreshHash: string, next: TokenPair, now: Date): Promise<string | undefined>;
  /** Commits the intention (and its idempotency answer, if any) in one transaction. */
  insertIntention(intention: NewIntention, idempotency?: Idempotency): Promise<InsertOutcome>;
  getIntention(userId: string, id: number): Promise<Intention | undefined>;
  findIdempotent(userId: string, key: string): Promise<IdempotentAnswer | undefined>;
  close(): Promise<void>;
}
