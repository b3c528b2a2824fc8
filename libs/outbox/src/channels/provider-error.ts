/**
 * A provider's refusal. `retryable` only when the provider clearly did not take the message (the
 * connection was refused, it answered 5xx or 429, an SMTP 4xx): sending it again cannot make a
 * duplicate. A timeout or a connection lost after the request went out is not: the text may have
 * left, and the relay sends at most once.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';

  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Nothing reached the provider: the connection itself was refused. */
export function connectionRefused(err: unknown): boolean {
  const e = err as { code?: unknown; originalCode?: unknown; errno?: unknown };
  return e.code === 'ECONNREFUSED' || e.originalCode === 'ECONNREFUSED';
}
