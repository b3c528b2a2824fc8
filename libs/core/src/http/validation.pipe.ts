import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DomainException } from '../errors/domain.exception.js';
import { acceptAtOnce } from './accepted-at-once.js';
import { failedChecks } from './failed-checks.js';
import { findForbiddenNull, findInputProblem } from './hostile-input.js';

/**
 * Refuses what class-validator would pass but something behind it cannot take (see hostile-input.ts):
 * text PostgreSQL cannot store or validator.js cannot read, numbers past any column, prototype-named
 * keys, each a VALIDATION naming the field before any transformer or validator runs; and a null
 * where the DTO's type has none, after.
 */
class HostileInputValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Only what arrived as text: queries, path params, and bodies declared with a DTO class. A socket
    // or a request object passed to a custom parameter is not data (and is cyclic); a board socket
    // message (`@MessageBody()`, typed by an interface) is checked by its gateway, which must answer
    // it with an ack: a refusal thrown here would leave the client waiting.
    const declared = typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    const fromText = metadata.type === 'query' || metadata.type === 'param' || (metadata.type === 'body' && declared);
    const problem = fromText ? findInputProblem(value, metadata.data ?? '') : null;
    if (problem) {
      const field = problem.field || metadata.data || metadata.type;
      throw DomainException.validation(problem.message, { field, fields: [{ field, message: problem.message }] });
    }
    // After validation: only then is the value an instance of the DTO, with its declared types. A
    // body its DTO's plain check accepts is built at once (accepted-at-once.ts); any other goes
    // through class-transformer and class-validator, which give every refusal.
    const dto: unknown =
      (metadata.type === 'body' && declared ? acceptAtOnce(metadata.metatype, value) : undefined) ??
      (await super.transform(value, metadata));
    const nulled = fromText ? findForbiddenNull(dto, metadata.data ?? '') : null;
    if (nulled) throw DomainException.validation(nulled.message, { field: nulled.field, fields: [nulled] });
    return dto;
  }
}

/**
 * The global pipe: unknown fields and wrong types are refused, never coerced ("3" is not 3).
 */
export function createValidationPipe(): ValidationPipe {
  return new HostileInputValidationPipe({
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

/**
 * For every email field: class-validator's own "must be an email" reads like a type, not an address.
 * `$property` is the raw name; DomainException.validation says it plainly ("Email must be …").
 */
export const EMAIL_MESSAGE = '$property must be an email address, such as name@example.com';

function flatten(errors: ValidationError[], prefix = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = failedChecks(e.constraints).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}
