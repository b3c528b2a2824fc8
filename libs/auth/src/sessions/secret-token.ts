import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque bearer secret: 32 random bytes, base64url. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The shape of a secret newSecretToken makes: anything else is refused without a lookup. */
export const SECRET_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the database keeps of a secret: its SHA-256, hex. */
export function hashSecret(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
