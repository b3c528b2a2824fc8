import { randomBytes } from 'node:crypto';
import { hashSecret, SECRET_TOKEN_SHAPE } from '@hostboard/auth';

/**
 * Crockford's base 32: digits and capitals without I, L, O and U. The queue code is handed over in
 * person and typed back at the desk, sometimes as the party reads it out: no letter in it reads like
 * a digit, and it has one case. 43 characters, as the spec's queue token (215 random bits).
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 43;
const CODE_SHAPE = /^[0-9A-HJKMNP-TV-Z]{43}$/;

/** A new queue code: each character from one random byte (32 divides 256, so every symbol is as likely). */
export function newQueueCode(): string {
  let code = '';
  for (const byte of randomBytes(CODE_LENGTH)) code += ALPHABET[byte & 31];
  return code;
}

/**
 * The hashes a code as typed may be stored under, in order: the code exactly as given (every code
 * issued before, base64url with both cases, is found only so), then the code as a person may have
 * read it (any case, l or I for 1, O for 0), when that reading is a code of the new shape. Nothing
 * when it is no code at all: refused without a lookup, as before.
 */
export function queueCodeHashes(given: string): string[] {
  if (!SECRET_TOKEN_SHAPE.test(given)) return [];
  const read = given.toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  return read !== given && CODE_SHAPE.test(read) ? [hashSecret(given), hashSecret(read)] : [hashSecret(given)];
}
