/**
 * Thrown to end a request with a stored answer (a retried POST). The exception filter writes the
 * stored status and body with `Idempotent-Replayed: true`.
 */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}
