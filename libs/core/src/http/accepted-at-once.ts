/**
 * A DTO's common, plainly valid bodies recognised by a plain check, without class-transformer and
 * class-validator (their metadata walk cost a desk join about 0.2 ms of the api's ~4 ms of CPU; see
 * docs/benchmarks.md, the twenty-third round). The check only ever says "valid": anything it does not
 * accept (a missing field, a wrong type, a blank email, a key it does not know, a null) goes the usual
 * way, so every refusal is still class-validator's, word for word.
 *
 * The check must accept only bodies that the DTO's decorators accept (a subset of them; a spec beside
 * each DTO that has one compares both on the edge cases and fails when the DTO's decorators change),
 * and the DTO is then built as
 * class-transformer builds it here (`enableImplicitConversion` off, no `@Type`/`@Transform`/`@Expose`):
 * `new Dto()` with the body's properties copied as they are.
 */
export type AtOnceCheck = (body: Record<string, unknown>) => boolean;

const checks = new WeakMap<object, AtOnceCheck>();

/** Class decorator: `check(body)` true means the body is valid for this DTO (see above). */
export function AcceptedAtOnce(check: AtOnceCheck): ClassDecorator {
  return (target) => {
    checks.set(target, check);
  };
}

/** The DTO built at once when its check accepts `value` (a plain JSON object); else undefined. */
export function acceptAtOnce(metatype: unknown, value: unknown): object | undefined {
  if (typeof metatype !== 'function') return undefined;
  const check = checks.get(metatype);
  if (!check || value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return undefined;
  if (!check(value as Record<string, unknown>)) return undefined;
  return Object.assign(new (metatype as new () => object)(), value);
}
