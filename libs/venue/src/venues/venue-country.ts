import { registerDecorator } from 'class-validator';
import { ISO_COUNTRIES, ZONE_COUNTRY } from './zone-countries.js';

/** The one country a time zone names (America/Chicago: US), or null when it names none (UTC, Etc/GMT+5). */
export function countryOfZone(timeZone: string): string | null {
  return ZONE_COUNTRY[timeZone] ?? null;
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
