import { pino } from 'pino';
import { createLogger, LOG_FLUSH_MS, stopPeriodicFlush } from './logger.js';

/** Counts the flushes of a buffered logger's destination (its timer's, and any other). */
function countFlushes(logger: ReturnType<typeof createLogger>): { count: () => number; reset: () => void } {
  const destination = (logger as unknown as Record<symbol, { flush: (cb?: unknown) => void }>)[pino.symbols.streamSym];
  let n = 0;
  const flush = destination.flush.bind(destination);
  destination.flush = (cb?: unknown) => {
    n++;
    flush(cb);
  };
  return { count: () => n, reset: () => (n = 0) };
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a buffered logger', () => {
  it('flushes on its timer until its app closes, then never again', async () => {
    const logger = createLogger('fatal', { buffered: true });
    const flushes = countFlushes(logger);
    await wait(LOG_FLUSH_MS * 6);
    expect(flushes.count()).toBeGreaterThan(0);

    stopPeriodicFlush(logger);
    flushes.reset();
    await wait(LOG_FLUSH_MS * 6);
    expect(flushes.count()).toBe(0);
  });

  it('is a no-op for a logger that writes each line at once, or one already stopped', () => {
    const direct = createLogger('fatal');
    expect(() => stopPeriodicFlush(direct)).not.toThrow();
    const logger = createLogger('fatal', { buffered: true });
    stopPeriodicFlush(logger);
    expect(() => stopPeriodicFlush(logger)).not.toThrow();
  });
});
