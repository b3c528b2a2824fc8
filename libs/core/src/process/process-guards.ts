import { Logger } from '@nestjs/common';

/**
 * The last line of defence: a promise nobody handled is logged, not allowed to end the process
 * (Node's default), so one forgotten `.catch` on a Redis or database call cannot take down every
 * board and request the process serves.
 */
export function installProcessGuards(processName: string): void {
  const logger = new Logger(processName);
  process.on('unhandledRejection', (reason: unknown) => {
    const err = reason instanceof Error ? reason : new Error(String(reason));
    logger.error(`unhandled rejection (logged, the process carries on): ${err.message}`, err.stack);
  });
  // Node's default for these is to end the process at once; a process manager's log rotation or
  // reload request should not stop the floor.
  for (const signal of CARRY_ON_SIGNALS) {
    process.on(signal, () => logger.log(`${signal} received: carrying on (the process stops on ${STOP_SIGNALS.join(' or ')})`));
  }
}

/**
 * The signals the api and the worker stop on, gracefully (requests answered, jobs handed back). Nest's
 * `enableShutdownHooks([])` stopped on every signal it knows, SIGHUP, SIGQUIT and SIGUSR2 among them,
 * which process managers send for other things (reopen log files, reload).
 */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Signals process managers send for their own purposes: logged, and the process carries on. */
export const CARRY_ON_SIGNALS = ['SIGHUP', 'SIGUSR2'] as const;
