import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BODY_TOO_LARGE } from '../http/body-parsing.js';
import { requestContext } from '../request-context/request-context.js';
import { IdempotentReplay } from '../transaction/idempotent-replay.js';
import { DomainException } from './domain.exception.js';
import { ErrorCode, httpStatusOf } from './error-code.js';
import { databaseUnreachable } from './database-error.js';

/**
 * The one place errors become HTTP. Domain refusals keep their code; Nest's own HTTP errors (unknown
 * route, throttling) are translated to codes; anything else is a 500 that names only a correlation id.
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof IdempotentReplay) {
      // A 204 has no body, whatever the key stored for it.
      void res
        .header('Idempotent-Replayed', 'true')
        .status(exception.status)
        .send(exception.status === 204 ? undefined : exception.body);
      return;
    }
    const domain = toDomain(exception);
    if (domain) {
      const retryAfter = domain.details['retryAfterSeconds'];
      if (domain.code === ErrorCode.RATE_LIMITED && typeof retryAfter === 'number') res.header('Retry-After', String(retryAfter));
      void res.status(httpStatusOf(domain.code)).send(domain.toBody());
      return;
    }
    const correlationId = requestContext.current()?.correlationId ?? 'unknown';
    const err = exception as Error;
    if (databaseUnreachable(exception)) {
      // The outage itself is logged once by the database watch (libs/persistence); a warning per
      // request answered meanwhile flooded the log. The access line records each 503.
      this.logger.debug(`request ${correlationId} answered 503, database unreachable: ${err?.message}`);
      void res.status(503).send({
        error: {
          code: ErrorCode.UNAVAILABLE,
          message: 'The service is briefly unavailable; retry shortly.',
          details: { correlationId },
        },
      });
      return;
    }
    this.logger.error(`unexpected fault ${correlationId}: ${err?.message}`, err?.stack);
    void res.status(HttpStatus.INTERNAL_SERVER_ERROR).send({
      error: { code: ErrorCode.INTERNAL, message: 'Something went wrong on our side.', details: { correlationId } },
    });
  }
}

function toDomain(exception: unknown): DomainException | undefined {
  if (exception instanceof DomainException) return exception;
  if (!(exception instanceof HttpException)) return undefined;
  switch (exception.getStatus()) {
    case 404:
      return DomainException.notFound('No such route.');
    case 429:
      return new DomainException(ErrorCode.RATE_LIMITED, 'Too many attempts; wait a minute and try again.');
    case 401:
      return DomainException.unauthenticated();
    case 403:
      return DomainException.forbidden();
    // Fastify stops reading a body over the limit before any parser runs.
    case 413:
      return DomainException.validation(BODY_TOO_LARGE);
    case 400:
    case 415:
      return DomainException.validation(exception.message);
    default:
      return undefined;
  }
}
