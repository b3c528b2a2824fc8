/**
 * The process's own wall clock in milliseconds, for ordering things made one after another (ids
 * that sort in the order made) and never for a time anyone reads: that is the injected Clock's,
 * which a test or a sandbox venue may hold still.
 */
export const wallClockMs = (): number => Date.now();
