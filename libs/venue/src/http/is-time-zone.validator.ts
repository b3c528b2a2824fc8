import { IANAZone } from 'luxon';
import { registerDecorator } from 'class-validator';

/**
 * A name of the IANA time-zone database that luxon (through Intl) knows: America/Chicago, and also
 * UTC or Etc/GMT+5, which have no "/" or no region. Bare offsets ("+05:00") are not zone names.
 */
export function IsTimeZone(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^[A-Za-z]/.test(value) && IANAZone.isValidZone(value),
        defaultMessage: () => `${String(propertyName)} must be an IANA time zone such as America/Chicago or UTC`,
      },
    });
  };
}
