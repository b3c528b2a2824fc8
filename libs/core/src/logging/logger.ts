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
  const destination = options.buffered ? pino.destination({ dest: 1, sync: false, minLength: 4096 }) : undefined;
  const logger = pino(
    {
      level,
      base: { service: 'hostboard' },
      redact: { paths: ['req.headers.authorization', 'password', 'token', '*.password', '*.token'], censor: '[redacted]' },
    },
    destination,
  );
  if (destination) {
    // Our own timer rather than sonic-boom's `periodicFlush`, so that `stopPeriodicFlush` can end it.
    const timer = setInterval(() => destination.flush(), LOG_FLUSH_MS);
    timer.unref();
    buffered.set(logger, { destination, timer });
  }
  return logger;
}

const buffered = new WeakMap<Logger, { destination: ReturnType<typeof pino.destination>; timer: NodeJS.Timeout }>();

/**
 * When the app that owns a buffered logger closes: writes what is buffered and ends its timer. A
 * process that builds many apps (a test worker) otherwise kept every closed app's timer writing to
 * stdout four times a second. Lines logged later still go out at 4 KB or when the process exits.
 */
export function stopPeriodicFlush(logger: Logger): void {
  const kept = buffered.get(logger);
  if (!kept) return;
  buffered.delete(logger);
  clearInterval(kept.timer);
  try {
    kept.destination.flushSync();
  } catch {
    // A write still in flight: its lines, and any after, go out with the next write or at exit.
  }
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
