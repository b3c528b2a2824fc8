import type { Case } from './boundary-cases/case.js';
import { EMPTY_POOL_CASES } from './boundary-cases/empty-pool.cases.js';
import { EXPIRY_CASES } from './boundary-cases/expiry.cases.js';
import { QUEUE_ORDER_CASES } from './boundary-cases/queue-order.cases.js';
import { RECORD_CASES } from './boundary-cases/records.cases.js';

export { Unverifiable, type Case, type Check, type LedgerBackend, type SecondApi } from './boundary-cases/case.js';

const byTest = new Map([...EMPTY_POOL_CASES, ...QUEUE_ORDER_CASES, ...EXPIRY_CASES, ...RECORD_CASES].map((c) => [c.test, c]));
const inOrder = (tests: string[]): Case[] =>
  tests.map((test) => {
    const found = byTest.get(test);
    if (!found) throw new Error(`no boundary case named ${test}`);
    return found;
  });

/** The worksheet's section 5, in its own order (the report lists them so). */
export const CASES: Case[] = inOrder([
  'Empty',
  'Whole capacity',
  'Invalid size',
  'Oldest cannot fit',
  'Waiting withdrawal',
  'Acceptance boundary',
  'Full timestamp',
  'Repeat expiry',
  'Last-seat conflict',
  'Full',
  'Repeat cancellation',
  'Save and return',
  'Record access',
]);
