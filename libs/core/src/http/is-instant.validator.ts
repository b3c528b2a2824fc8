import { isISO8601, registerDecorator, type ValidationArguments } from 'class-validator';

/** The instants any request may name: a year in 9999 broke the time-zone arithmetic behind a booking. */
export const EARLIEST_INSTANT = Date.UTC(2000, 0, 1);
export const LATEST_INSTANT = Date.UTC(2101, 0, 1); // exclusive: the last accepted year is 2100

/**
 * A time of day ending in Z or ±hh:mm (±hhmm too: as unambiguous, and accepted before). Without an
 * offset, "2026-12-04T23:11" (and "2026-12-04 23:11") is read by Date.parse in the server process's
 * own time zone: the same request meant another instant under TZ=America/New_York than under UTC;
 * a date alone is read as UTC midnight, which is no venue's midnight. API.md: instants are ISO-8601
 * with offset.
 */
const OFFSET = /[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Whether `value` is a strict ISO-8601 instant with an offset, from 2000 to 2100 (UTC), the same on every field. */
export function isInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !isISO8601(value, { strict: true }) || !OFFSET.test(value)) return false;
  const t = Date.parse(value);
  return Number.isFinite(t) && t >= EARLIEST_INSTANT && t < LATEST_INSTANT;
}

/** Why a value is refused: a string that only lacks its offset is told so. */
function instantMessage(field: string, value: unknown): string {
  if (typeof value === 'string' && isISO8601(value, { strict: true }) && !OFFSET.test(value)) {
    return `${field} needs a time with an offset from UTC (Z or ±hh:mm), as in 2026-12-04T23:11:00Z or 2026-12-04T23:11:00+01:00`;
  }
  return `${field} must be an ISO-8601 instant between the years 2000 and 2100`;
}

/** An ISO-8601 instant (strict) with an offset (Z or ±hh:mm), between the years 2000 and 2100. */
export function IsInstant(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    const field = String(propertyName);
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName: field,
      validator: {
        validate: (value: unknown) => isInstant(value),
        defaultMessage: (args?: ValidationArguments) => instantMessage(field, args?.value),
      },
    });
  };
}
