import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';

/** One structured JSON logger for the process (pino); Nest's own messages go through it too. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'hostboard' },
    redact: { paths: ['req.headers.authorization', 'password', 'token', '*.password', '*.token'], censor: '[redacted]' },
  });
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
