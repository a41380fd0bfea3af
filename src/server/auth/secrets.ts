// Password hashing (scrypt, node:crypto) and random secrets stored only as sha256 hashes.
// A token is 122 random bits, so a fast hash is enough for lookup; passwords get scrypt.
import { createHash, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEYLEN = 32;

/** `scrypt$<salt b64>$<hash b64>`: the salt travels with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEYLEN);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** A stored hash of a password nobody has, so unknown e-mails cost the same time as wrong passwords. */
export const DUMMY_PASSWORD_HASH = `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(KEYLEN).toString('base64')}`;

export const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Access and refresh tokens: UUID-shaped, as the spec shows. */
export const newToken = (): string => randomUUID();

/** Long-lived API keys: a recognisable prefix and 256 random bits. */
export const newApiKey = (): string => `bob_${randomBytes(32).toString('base64url')}`;

/** A terminal's own key (its client authenticates with it): a prefix of its own and 256 random bits. */
export const newTerminalKey = (): string => `bobt_${randomBytes(32).toString('base64url')}`;
