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
}
