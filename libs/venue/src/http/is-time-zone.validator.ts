import { IANAZone } from 'luxon';
import { registerDecorator, type ValidationArguments } from 'class-validator';

/**
 * Zone names that PostgreSQL's timezone() reads as fixed abbreviations (CET: UTC+1 all year) while
 * Luxon reads them as IANA zones with summer time (CET: UTC+2 in July): a venue's rules would run on
 * two clocks an hour apart all summer. Compared over every zone Intl lists, these are the only four.
 */
const READ_TWO_WAYS = new Set(['CET', 'EET', 'MET', 'WET']);

const readTwoWays = (value: unknown): boolean => typeof value === 'string' && READ_TWO_WAYS.has(value.toUpperCase());

/**
 * A name of the IANA time-zone database that luxon (through Intl) knows: America/Chicago, and also
 * UTC or Etc/GMT+5, which have no "/" or no region. Bare offsets ("+05:00") are not zone names, and
 * neither CET, EET, MET nor WET (above).
 */
export function IsTimeZone(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^[A-Za-z]/.test(value) && IANAZone.isValidZone(value) && !readTwoWays(value),
        defaultMessage: (args?: ValidationArguments) =>
          readTwoWays(args?.value)
            ? `${String(propertyName)} ${String(args?.value)} is read with summer time in some places and without it in others: use the zone of the venue's city, such as Europe/Paris`
            : `${String(propertyName)} must be an IANA time zone such as America/Chicago or UTC`,
      },
    });
  };
}
