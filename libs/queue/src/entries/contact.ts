import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { DomainException } from '@hostboard/core';

export interface Contact {
  email: string | null;
  phone: string | null;
  /** What the one-entry-per-contact rule compares: the email if given, else the E.164 phone. */
  key: string | null;
}

/** Normalises a party's contact: email trimmed and lower-cased, phone in E.164 (libphonenumber-js). */
export function normaliseContact(email: string | undefined, phone: string | undefined): Contact {
  const e = email?.trim().toLowerCase() || null;
  let p: string | null = null;
  if (phone !== undefined && phone.trim() !== '') {
    const parsed = /^\+[1-9]\d{1,14}$/.test(phone.trim()) ? parsePhoneNumberFromString(phone.trim()) : undefined;
    if (!parsed?.isValid())
      throw DomainException.validation('phone must be an E.164 phone number, such as +13125550123.', { field: 'phone' });
    p = parsed.number;
  }
  return { email: e, phone: p, key: e ? `email:${e}` : p ? `phone:${p}` : null };
}
