import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/**
 * The recipient a manager typed in the messages filter, as the outbox records it: an email lower-cased,
 * a phone number in E.164 read with the venue's country ("(312) 555-0123", "3125550123" and
 * "+1 312 555 0123" are one number). A `+` left unencoded in the query arrives as a space and the
 * number reads the same. Anything else is compared as typed, and simply matches nothing.
 */
export function recordedRecipient(typed: string, country: string | null): string {
  const t = typed.trim();
  if (t.includes('@')) return t.toLowerCase();
  const international = t.startsWith('+');
  const parsed =
    international || country
      ? parsePhoneNumberFromString(t, international ? undefined : { defaultCountry: country as CountryCode })
      : undefined;
  return parsed?.isValid() ? parsed.number : t;
}
