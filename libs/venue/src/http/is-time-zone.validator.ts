import { IANAZone } from 'luxon';
import { registerDecorator } from 'class-validator';

/** An IANA time-zone name luxon knows (America/Chicago), not an offset. */
export function IsTimeZone(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.includes('/') && IANAZone.isValidZone(value),
        defaultMessage: () => `${String(propertyName)} must be an IANA time zone such as America/Chicago`,
      },
    });
  };
}
