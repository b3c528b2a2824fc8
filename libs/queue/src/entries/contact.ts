import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { DomainException } from '@hostboard/core';

export interface Contact {
  email: string | null;
  phone: string | null;
  /** What the one-entry-per-contact rule compares: the email if given, else the E.164 phone. */
  key: string | null;
}

/**
 * Normalises a party's contact: email trimmed and lower-cased, phone stored in E.164
 * (libphonenumber-js). A number in international form (+…) is read as it is; a national one, such
 * as "(212) 555-0143", is read with the venue's country (ISO 3166-1 alpha-2), so duplicates are
 * compared on the same normalised number whichever way it was typed.
 */
export function normaliseContact(email: string | undefined, phone: string | undefined, country: string | null = null): Contact {
  const e = email?.trim().toLowerCase() || null;
  let p: string | null = null;
  const typed = phone?.trim() ?? '';
  if (typed !== '') {
    const international = typed.startsWith('+');
    const parsed =
      international || country
        ? parsePhoneNumberFromString(typed, international ? undefined : { defaultCountry: country as CountryCode })
        : undefined;
    if (!parsed?.isValid()) {
      throw DomainException.validation(
        country
          ? `phone must be a valid ${country} phone number, or in international (E.164) form such as +13125550123.`
          : 'phone must be in international form (E.164), such as +13125550123: this venue has no country for national numbers.',
        { field: 'phone' },
      );
    }
    p = parsed.number;
  }
  return { email: e, phone: p, key: e ? `email:${e}` : p ? `phone:${p}` : null };
}
