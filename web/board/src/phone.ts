import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

export type PhoneCheck = { ok: true; value: string } | { ok: false; hint: string };

/**
 * Reads a phone number as typed at the desk: with the venue's country, a national number ("(312)
 * 555-0123", "0612 345 678") works; with a leading + any country's. A number it reads is sent in its
 * international form, which the server accepts; one it cannot read is flagged before submit, and
 * the server still decides.
 */
export function checkPhone(typed: string, country: string | null | undefined): PhoneCheck {
  const text = typed.trim();
  const cc = country && /^[A-Z]{2}$/.test(country) ? (country as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(text, cc ? { defaultCountry: cc } : undefined);
  if (parsed?.isValid()) return { ok: true, value: parsed.number };
  return { ok: false, hint: phoneHint(country) };
}

/** What the desk may type, in words (no example figures). */
export function phoneHint(country: string | null | undefined): string {
  return country
    ? 'The number as the guest says it, or with + and the country code.'
    : 'With + and the country code, as the guest would dial it from abroad.';
}

/**
 * A stored number (E.164) as the host would say it: in the venue's own national form ("(312)
 * 555-0140") when it is the venue's country, else with + and the country code. `checkPhone` reads
 * either form back to the same number.
 */
export function displayPhone(e164: string, country: string | null | undefined): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return country && parsed.country === country ? parsed.formatNational() : parsed.formatInternational();
}
