import { readableMessage } from '../http/readable-message.js';
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

  /**
   * A refusal of the input. Its words, and each of `details.fields`' messages, read as sentences
   * (readable-message.ts): "Party size must not be greater than 200", not "partySize must …", for
   * every client; the raw names stay in `details.field` and `details.fields[].field`.
   */
  static validation(message: string, details: ErrorDetails = {}): DomainException {
    const field = typeof details['field'] === 'string' ? details['field'] : undefined;
    const fields = details['fields'];
    const readable = Array.isArray(fields)
      ? {
          ...details,
          fields: fields.map((f: unknown) =>
            f !== null && typeof f === 'object' && typeof (f as { message?: unknown }).message === 'string'
              ? {
                  ...f,
                  message: readableMessage(
                    (f as { message: string }).message,
                    typeof (f as { field?: unknown }).field === 'string' ? (f as { field: string }).field : undefined,
                  ),
                }
              : f,
          ),
        }
      : details;
    const first = Array.isArray(fields) ? (fields[0] as { field?: unknown } | undefined) : undefined;
    const about = field ?? (typeof first?.field === 'string' ? first.field : undefined);
    return new DomainException(ErrorCode.VALIDATION, readableMessage(message, about), readable);
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
