import { setFlagsFromString } from 'node:v8';

/** How much V8's old generation may grow past what survived its last full collection, in percent. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * By default V8 lets the old generation grow to as much as four times what survived its last full
 * collection before it collects again. A serving api process holds about 60 MB of live heap, yet a
 * burst of board reads took each one to 320-365 MB of RSS, nearly all of it garbage waiting for a
 * collection (measured by forcing one: 58-59 MB live throughout). Growing by half instead kept it
 * at 211-230 MB, with the same joins per second (docs/benchmarks.md, fourteenth round). V8 reads the
 * flag at each full collection, so setting it here, before the app is loaded, is enough; a
 * `--heap-growing-percent` given to node itself is left to rule.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => a.startsWith('--heap-growing-percent') || a.startsWith('--heap_growing_percent'))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
