import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DomainException } from '../errors/domain.exception.js';

/** A UTF-16 surrogate not paired with its other half: JSON's "\ud800" can carry one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Refuses text that is not well-formed Unicode before any validator sees it: validator's isEmail
 * calls encodeURI, which throws on a lone surrogate (the fuzz found it as a 500).
 */
class WellFormedValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Only what arrived as text (JSON bodies, queries, path params): a socket or a request object
    // passed to a custom parameter is not data, and is cyclic.
    const fromText = metadata.type === 'body' || metadata.type === 'query' || metadata.type === 'param';
    const field = fromText ? illFormedField(value, '') : null;
    if (field !== null) throw DomainException.validation('Text must be valid Unicode.', { field: field || metadata.type });
    return super.transform(value, metadata);
  }
}

/** The path of the first string (key or value) holding a lone surrogate, or null. */
function illFormedField(value: unknown, path: string): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (LONE_SURROGATE.test(key)) return at;
    const found = illFormedField(child, at);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The global pipe: unknown fields and wrong types are refused, never coerced ("3" is not 3).
 */
export function createValidationPipe(): ValidationPipe {
  return new WellFormedValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => {
      const fields = flatten(errors);
      const first = fields[0];
      return DomainException.validation(first ? first.message : 'The request is not valid.', { fields });
    },
  });
}

function flatten(errors: ValidationError[], prefix = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}
