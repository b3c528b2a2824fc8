import { IsEmail, isEmail, registerDecorator } from 'class-validator';
import { EMAIL_MESSAGE } from './validation.pipe.js';

/**
 * Refused in an address: white space, control and format characters (bidi overrides, zero-width
 * spaces, the soft hyphen, tag characters), line and paragraph separators and the other characters
 * that draw nothing. The address is shown to managers on the Messages tab and handed to the mail
 * provider: "\u202Emoc.live@…" reads reversed there, and a mailer that drops a BEL or a line break
 * sends to another address than the one stored.
 */
const NOT_IN_AN_ADDRESS = /[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/** validator's isEmail options: no quoted local part. */
const EMAIL_OPTIONS = { blacklisted_chars: '"' };

/** What `@IsEmailAddress()` accepts, as a plain check (for `AcceptedAtOnce`). */
export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && isEmail(value, EMAIL_OPTIONS) && !NOT_IN_AN_ADDRESS.test(value);
}

/**
 * A guest's or a staff member's email address: validator's isEmail without the quoted local part
 * (`"a,b\r\nbcc: …"@example.com` is valid RFC 5321 and no one's real address, and takes commas, line
 * breaks and control characters), and without characters that are invisible or not text. Keeps
 * class-validator's `isEmail` check by name, which the fuzz reads to build valid bodies.
 */
export function IsEmailAddress(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    IsEmail(EMAIL_OPTIONS, { message: EMAIL_MESSAGE })(target, propertyName);
    registerDecorator({
      name: 'isEmailAddressText',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: EMAIL_MESSAGE },
      validator: { validate: (value: unknown) => typeof value !== 'string' || !NOT_IN_AN_ADDRESS.test(value) },
    });
  };
}
