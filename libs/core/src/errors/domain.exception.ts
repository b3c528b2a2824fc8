import { ErrorCode } from './error-code.js';

export type ErrorDetails = Record<string, unknown>;

/**
 * The one exception type of the domain. Services throw it with a code; the exception filter maps the
 * code to HTTP. Domain code never throws HttpException.
 */
export class DomainException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainException';
  }

  static validation(message: string, details: ErrorDetails = {}): DomainException {
    return new DomainException(ErrorCode.VALIDATION, message, details);
  }

  static notFound(what = 'The record was not found.'): DomainException {
    return new DomainException(ErrorCode.NOT_FOUND, what);
  }

  static forbidden(message = 'Your role does not allow this.'): DomainException {
    return new DomainException(ErrorCode.FORBIDDEN, message);
  }

  static unauthenticated(message = 'Sign in to continue.'): DomainException {
    return new DomainException(ErrorCode.UNAUTHENTICATED, message);
  }

  toBody(): { error: { code: ErrorCode; message: string; details: ErrorDetails } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}
