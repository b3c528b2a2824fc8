import { registerDecorator } from 'class-validator';
import { ISO_COUNTRIES, ZONE_COUNTRY } from './zone-countries.js';

/**
 * Old names ICU still reports as canonical (what `Intl` gives in browsers and Node: all of India is
 * Asia/Calcutta there), renamed in tzdata within the same country, so zone.tab does not list them.
 */
const ICU_RENAMED: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'ER',
  'America/Buenos_Aires': 'AR',
  'America/Catamarca': 'AR',
  'America/Coral_Harbour': 'CA',
  'America/Cordoba': 'AR',
  'America/Godthab': 'GL',
  'America/Indianapolis': 'US',
  'America/Jujuy': 'AR',
  'America/Louisville': 'US',
  'America/Mendoza': 'AR',
  'Asia/Calcutta': 'IN',
  'Asia/Katmandu': 'NP',
  'Asia/Rangoon': 'MM',
  'Asia/Saigon': 'VN',
  'Atlantic/Faeroe': 'FO',
  'Europe/Kiev': 'UA',
  'Pacific/Enderbury': 'KI',
  'Pacific/Ponape': 'FM',
  'Pacific/Truk': 'FM',
};

/** The one country a time zone names (America/Chicago: US), or null when it names none (UTC, Etc/GMT+5). */
export function countryOfZone(timeZone: string): string | null {
  return ZONE_COUNTRY[timeZone] ?? ICU_RENAMED[timeZone] ?? null;
}

/** An ISO 3166-1 alpha-2 code in upper case (US, GB), or null to clear it. */
export function IsCountryCode(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isCountryCode',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => value === null || (typeof value === 'string' && ISO_COUNTRIES.has(value)),
        defaultMessage: () => `${String(propertyName)} must be an ISO 3166-1 alpha-2 country code such as US or GB`,
      },
    });
  };
}
