// The 'max' metadata (about 157 KB of JSON against 'min''s 83 KB, some 0.35 MB more heap per
// process): with 'min', getType() answers undefined for most countries (France, Germany, Japan…),
// so a landline there would pass the check below. It also checks each number against the ranges in
// use, not only its length. The board page keeps 'min' (a browser bundle); the server decides.
import { parsePhoneNumberFromString, type CountryCode, type PhoneNumberType } from 'libphonenumber-js/max';
import { DomainException } from '@hostboard/core';

export interface Contact {
  email: string | null;
  phone: string | null;
  /** What the one-entry-per-contact rule compares: the email if given, else the E.164 phone. */
  key: string | null;
}

/**
 * The phone is how a phone-only party hears from us, by text: numbers that cannot receive one
 * (landlines, pagers, voicemail, UK "universal access" numbers) or that charge the sender (premium
 * rate, shared cost, toll free) are refused. Kept: MOBILE, FIXED_LINE_OR_MOBILE (every US and
 * Canadian number), PERSONAL_NUMBER, VOIP, and a number of no known type.
 */
const CANNOT_TEXT: ReadonlySet<PhoneNumberType> = new Set<PhoneNumberType>([
  'FIXED_LINE',
  'PAGER',
  'PREMIUM_RATE',
  'SHARED_COST',
  'TOLL_FREE',
  'UAN',
  'VOICEMAIL',
]);

export const CANNOT_TEXT_MESSAGE = 'This number cannot receive text messages; give a mobile number.';

/**
 * Normalises a party's contact: email trimmed and lower-cased, phone stored in E.164
 * (libphonenumber-js). A number in international form (+…) is read as it is; a national one, such
 * as "(212) 555-0143", is read with the venue's country (ISO 3166-1 alpha-2), so duplicates are
 * compared on the same normalised number whichever way it was typed. `storedPhone`, the number a
 * correction keeps, passes as it is: it was checked when it was given, and a correction of the
 * party size must not be refused because the rules for new numbers changed since.
 */
export function normaliseContact(
  email: string | undefined,
  phone: string | undefined,
  country: string | null = null,
  storedPhone: string | null = null,
): Contact {
  const e = email?.trim().toLowerCase() || null;
  const typed = phone?.trim() ?? '';
  const p = typed === '' ? null : typed === storedPhone ? storedPhone : readPhone(typed, country);
  return { email: e, phone: p, key: e ? `email:${e}` : p ? `phone:${p}` : null };
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A typed number in E.164, or a VALIDATION refusal saying why it cannot be used. */
function readPhone(typed: string, country: string | null): string {
  const international = typed.startsWith('+');
  const parsed =
    international || country
      ? parsePhoneNumberFromString(typed, international ? undefined : { defaultCountry: country as CountryCode })
      : undefined;
  if (!parsed?.isValid()) {
    // A guest reads this on the public join: the country by name, no field name, no standard's number,
    // and no example from another country.
    const where = country === null ? null : (REGION_NAMES.of(country) ?? country);
    throw DomainException.validation(
      where
        ? `We cannot read that phone number. Give it as it is dialled in the venue’s country (${where}), or with + and the country code.`
        : 'Give the phone number in international form, with + and the country code: this venue has no country set, so a number without them cannot be read.',
      { field: 'phone' },
    );
  }
  const type = parsed.getType();
  if (type !== undefined && CANNOT_TEXT.has(type)) throw DomainException.validation(CANNOT_TEXT_MESSAGE, { field: 'phone' });
  return parsed.number;
}

/**
 * The anonymous public join texts only numbers of the venue's own country. Every text costs the
 * venue money, and a join and a leave each send one without anyone at the venue doing anything: a
 * script could otherwise point hundreds of texts an hour, within the join limits, at numbers abroad
 * whose operators share the fee with it (SMS pumping). A party from abroad gives an email, or the
 * host adds the number at the desk, where every number the desk accepts still works.
 */
export function refuseTextsAbroad(phone: string | null, country: string | null): void {
  if (phone === null) return;
  if (country !== null && parsePhoneNumberFromString(phone)?.country === country) return;
  const where = country === null ? null : (REGION_NAMES.of(country) ?? country);
  throw DomainException.validation(
    where === null
      ? 'This queue’s public form takes no phone numbers; give an email address, or ask the host to add your number.'
      : `This queue’s public form takes only ${where} phone numbers; give an email address, or ask the host to add your number.`,
    { field: 'phone' },
  );
}
