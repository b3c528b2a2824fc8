import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';

/** Buffered lines are written at least this often, so a quiet server's log is never far behind. */
export const LOG_FLUSH_MS = 250;

/**
 * One structured JSON logger for the process (pino); Nest's own messages go through it too.
 *
 * `buffered` (the api and the worker): lines collect in memory and go to stdout in writes of about
 * 4 KB, at least every LOG_FLUSH_MS, instead of one synchronous write per line. Why: the access log
 * writes a line per request, and on these machines a write call costs about 0.1 ms of CPU; one per
 * request was a quarter of a GET's CPU (docs/benchmarks.md). pino flushes the buffer synchronously
 * when the process exits (process.exit, an uncaught error through installProcessGuards, a signal
 * handled by the shutdown hooks); only a SIGKILL loses the last quarter second of lines.
 */
export function createLogger(level: string, options: { buffered?: boolean } = {}): Logger {
  const destination = options.buffered
    ? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS })
    : undefined;
  return pino(
    {
      level,
      base: { service: 'hostboard' },
      redact: { paths: ['req.headers.authorization', 'password', 'token', '*.password', '*.token'], censor: '[redacted]' },
    },
    destination,
  );
}

export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
