/** class-validator's names of the checks that say what type a value must have. */
const TYPE_CHECKS = new Set([
  'isInt',
  'isNumber',
  'isString',
  'isBoolean',
  'isArray',
  'isObject',
  'isEnum',
  'isIn',
  'isDateString',
]);

/**
 * The messages of a value's failed checks (class-validator's `constraints`) worth saying. A value of
 * the wrong type fails its range checks too ("2" is not at most 100000 either; "PORT=eighty" is not
 * "greater than 65535"), and class-validator lists the checks last-declared first: when a type check
 * failed, only what is wrong with its type. Used by the request pipe and the configuration alike.
 */
export function failedChecks(constraints: Record<string, string> = {}): string[] {
  const failed = Object.entries(constraints);
  const typed = failed.filter(([name]) => TYPE_CHECKS.has(name));
  return (typed.length > 0 ? typed : failed).map(([, message]) => message);
}
