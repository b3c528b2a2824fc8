import { isISO8601, registerDecorator } from 'class-validator';

/** The instants any request may name: a year in 9999 broke the time-zone arithmetic behind a booking. */
export const EARLIEST_INSTANT = Date.UTC(2000, 0, 1);
export const LATEST_INSTANT = Date.UTC(2101, 0, 1); // exclusive: the last accepted year is 2100

/** Whether `value` is a strict ISO-8601 instant from 2000 to 2100 (UTC), the same on every field. */
export function isInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !isISO8601(value, { strict: true })) return false;
  const t = Date.parse(value);
  return Number.isFinite(t) && t >= EARLIEST_INSTANT && t < LATEST_INSTANT;
}

/** An ISO-8601 instant (strict) between the years 2000 and 2100. */
export function IsInstant(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => isInstant(value),
        defaultMessage: () => `${String(propertyName)} must be an ISO-8601 instant between the years 2000 and 2100`,
      },
    });
  };
}
