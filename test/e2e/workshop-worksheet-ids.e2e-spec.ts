import { readFileSync } from 'node:fs';
import { parseWorksheet, type Worksheet } from '../../apps/ledger/src/worksheet.js';

/**
 * Each row's operation id is its Idempotency-Key (the guide: "give each cancellation, acceptance and
 * expiry operation a stable identifier so a retry can be recognized"). An organizer who named two
 * rows T-01 (the cancellation and the hold after it) had the hold sent under the cancellation's key:
 * the app rightly refused it IDEMPOTENCY_KEY_REUSED, and the ledger reported "the app disagrees with
 * the policy: T-01: the app held seats for nobody", telling the organizer to keep registration
 * closed over their own typo. A retry of a row that has not run yet stopped the replay mid-way with
 * "retry of T-09, which has not run", and a hold of 0 seconds with a raw 400 from PATCH. Each is
 * refused now before any venue is set up, naming the row.
 */
const maple = (): Worksheet => JSON.parse(readFileSync('examples/maple-room.worksheet.json', 'utf8')) as Worksheet;

describe('the worksheet’s operation ids and hold length are checked before any venue is set up', () => {
  it('refuses two rows with one operation id, and says how to send a row again', () => {
    const sheet = maple();
    sheet.transactions[2] = { ...sheet.transactions[2]!, op: 'T-01' };
    expect(() => parseWorksheet(sheet)).toThrow(
      'worksheet: rows 2 and 3 are both named T-01: each row needs an operation id of its own (it is the row’s Idempotency-Key); to send a row again, add a row with {"type": "retry", "op": "T-01"}',
    );
  });

  it('refuses ids that differ only in characters a key cannot carry', () => {
    const sheet = maple();
    sheet.transactions[2] = { ...sheet.transactions[2]!, op: 'T 01' };
    sheet.transactions[1] = { ...sheet.transactions[1]!, op: 'T\u00a001' };
    expect(() => parseWorksheet(sheet)).toThrow(/rows 2 and 3 are both named T.01/);
  });

  it('refuses a row named like another row’s later step (T-01#2), whose key that step is sent under', () => {
    const sheet = maple();
    const t01 = sheet.transactions[1]!;
    sheet.transactions[1] = { ...t01, steps: [...t01.steps, ...sheet.transactions[2]!.steps] };
    sheet.transactions[3] = { ...sheet.transactions[3]!, op: 'T-01#2' };
    expect(() => parseWorksheet(sheet)).toThrow(
      'worksheet: row 4 is named T-01#2, the key row 2 (T-01) sends its step 2 under: rename row 4 (a row’s later steps go as its id followed by #2, #3, …)',
    );
    // An id with a # that no step uses is still taken.
    const free = maple();
    free.transactions[3] = { ...free.transactions[3]!, op: 'T-01#2' };
    expect(parseWorksheet(free).transactions[3]?.op).toBe('T-01#2');
  });

  it('refuses a retry of a row that has not run yet, or of no row at all', () => {
    const later = maple();
    later.transactions[3] = { ...later.transactions[3]!, steps: [{ type: 'retry', op: 'T-09' }] };
    expect(() => parseWorksheet(later)).toThrow(
      'worksheet: row T-03 retries T-09, which is not an earlier row: a retry sends an operation that already ran again',
    );
    const none = maple();
    none.transactions[3] = { ...none.transactions[3]!, steps: [{ type: 'retry', op: 'T-99' }] };
    expect(() => parseWorksheet(none)).toThrow('worksheet: row T-03 retries T-99, which is not an earlier row');
  });

  it('refuses a hold length that is not a positive whole number of seconds', () => {
    for (const holdSeconds of [0, -60, 1.5]) {
      const sheet = maple();
      sheet.policy = { ...sheet.policy, holdSeconds };
      expect(() => parseWorksheet(sheet)).toThrow(
        `worksheet: "policy.holdSeconds" must be a positive whole number of seconds (1800 is thirty minutes), not ${holdSeconds}`,
      );
    }
  });

  it('refuses a waiting list out of sequence order (two requests received at one minute), before any venue', () => {
    const sheet = maple();
    const [w1, w2, w3] = sheet.waiting;
    sheet.waiting = [w1!, { ...w3!, received: w2!.received }, w2!];
    expect(() => parseWorksheet(sheet)).toThrow(
      'worksheet: W-03 is listed 2nd among the waiting requests with queue sequence 3: the app numbers requests 1, 2, 3… in the order they are saved; list them in sequence order, numbered from 1',
    );
  });

  it('still takes the Maple Room worksheet and its retry row', () => {
    expect(parseWorksheet(maple()).transactions.at(-1)?.op).toBe('Retry T-01');
  });
});
