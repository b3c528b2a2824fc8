import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainException } from '../errors/domain.exception.js';

/**
 * The global pipe: unknown fields and wrong types are refused, never coerced ("3" is not 3).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
