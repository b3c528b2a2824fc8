/**
 * Input that class-validator passes but that breaks something behind it, found one by one as 500s:
 * text PostgreSQL cannot store, numbers no column holds, keys class-transformer treats as the
 * instance's own members, and JSON deep enough to overflow the transformer's recursion.
 */

/** Deeper JSON than any request needs; class-transformer recursed out of stack near 5,000. */
export const MAX_JSON_DEPTH = 32;

/** A UTF-16 surrogate not paired with its other half: JSON's "\ud800" can carry one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

export interface InputProblem {
  field: string;
  message: string;
}

/** Why a string cannot be stored as PostgreSQL text (or passed to validator.js), or null. */
function textProblem(s: string): string | null {
  // validator's isEmail calls encodeURI, which throws on a lone surrogate.
  if (LONE_SURROGATE.test(s)) return 'Text must be valid Unicode.';
  // PostgreSQL text and jsonb refuse byte 0x00.
  if (s.includes('\u0000')) return 'Text must not contain the NUL character.';
  return null;
}

/**
 * Keys named like Object.prototype members: class-transformer skips a key whose instance member is a
 * function (`constructor`, `toString`) and `__proto__` replaces the instance's prototype, so neither
 * reached the unknown-field check.
 */
function isPrototypeKey(key: string): boolean {
  return key === '__proto__' || key in Object.prototype;
}

/**
 * The first problem in a parsed body, query or params (depth-first, in key order), or null. The
 * caller bounds depth first (the body parser does, for bodies; queries and params are flat).
 */
export function findInputProblem(value: unknown, path = ''): InputProblem | null {
  const at = (key: string): string => (path ? `${path}.${key}` : key);
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { field: path, message } : null;
  }
  if (typeof value === 'number') {
    // No column holds more than a safe integer, and no field needs one; 1e308 passes @IsInt.
    return Math.abs(value) > Number.MAX_SAFE_INTEGER ? { field: path, message: `${path || 'value'} is out of range` } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  // Own keys only (JSON.parse makes `__proto__` an own key); a null-prototype query object has no inherited ones.
  for (const key of Object.keys(value)) {
    const field = at(key);
    const keyMessage = textProblem(key);
    if (keyMessage) return { field, message: keyMessage };
    if (isPrototypeKey(key)) return { field, message: `property ${field} should not exist` };
    const found = findInputProblem((value as Record<string, unknown>)[key], field);
    if (found) return found;
  }
  return null;
}

/**
 * More values than any request needs (the widest body, a reservation or a new venue with its
 * decisions, holds a few dozen). 64 KB of JSON holds some 30,000: class-transformer copied each and
 * the unknown-field check listed each key, so one anonymous body cost 100–300 ms of CPU to refuse
 * (a join costs about 5) and a 60 KB one of unknown keys was answered with 400 KB.
 */
export const MAX_JSON_VALUES = 1000;

/** Whether parsed JSON holds more than `max` values: object members and array elements, at any depth. */
export function holdsMoreValuesThan(value: unknown, max: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    if (v === null || typeof v !== 'object') continue;
    const children = Object.values(v);
    count += children.length;
    if (count > max) return true;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}

/** Whether parsed JSON nests deeper than `max` (iterative: the check must not overflow itself). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A null where the DTO's declared type has none: @IsOptional() lets null through as "absent", but a
 * field typed `phone?: string` is then read as a string (`phone: null` on a join was a 500). A field
 * that may be null says so in its type (`email?: string | null`, emitted as Object) and is left alone.
 */
export function findForbiddenNull(dto: unknown, path = ''): InputProblem | null {
  if (dto === null || typeof dto !== 'object' || Array.isArray(dto)) return null;
  const proto: unknown = Object.getPrototypeOf(dto);
  if (proto === null || proto === Object.prototype) return null; // a plain object declares no types
  for (const [key, v] of Object.entries(dto)) {
    const field = path ? `${path}.${key}` : key;
    const declared: unknown = Reflect.getMetadata('design:type', proto as object, key);
    if (v === null && declared !== undefined && declared !== Object) return { field, message: `${field} must not be null` };
    const inner = findForbiddenNull(v, field);
    if (inner) return inner;
  }
  return null;
}
