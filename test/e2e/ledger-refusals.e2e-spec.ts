import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built ledger CLI (`npm run ledger` runs it). */
const LEDGER_MAIN = resolve('dist/apps/ledger/src/main.js');
const LOTUS = readFileSync('examples/lotus-studio.worksheet.json', 'utf8');

type Sheet = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Worksheets an organizer types by hand, each with one slip: `npm run ledger` must refuse every one
 * before it sets up a venue, with one plain line naming the row (or party) and the field, and exit 1.
 * Before, a missing `expect.queue` ended in "Cannot read properties of undefined (reading 'length')",
 * a count typed as text was added as text ("10 + 3 + 4 = 1034"), a misspelt time zone or an impossible
 * date was blamed on the "start" time, a misspelt policy word came back as the api's raw 400, a step
 * naming nobody ("cancel Z") was blamed on a row far below, and broken JSON printed no file name.
 */
describe('the ledger refuses a mistyped worksheet with one line naming the row and field', () => {
  let tmp: string;
  beforeAll(() => (tmp = mkdtempSync(join(tmpdir(), 'hb-ledger-refusals-'))));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const run = async (name: string, text: string): Promise<{ code: number | null; stdout: string; stderr: string }> => {
    const file = join(tmp, `${name}.worksheet.json`);
    writeFileSync(file, text);
    // No database is named: a refusal comes before any is opened.
    const proc = spawn(process.execPath, [LEDGER_MAIN, file], {
      env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp, LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => proc.once('exit', r));
    return { code, stdout, stderr: stderr.replace(file, 'FILE') };
  };
  const slip = (change: (w: Sheet) => void): string => {
    const w = JSON.parse(LOTUS) as Sheet;
    change(w);
    return JSON.stringify(w, null, 2);
  };

  const cases: Array<[string, string, string]> = [
    [
      'a misspelt time zone',
      slip((w) => (w['timeZone'] = 'Asia/Calcuta')),
      'worksheet: "timeZone": "Asia/Calcuta" is not a time zone name; use an IANA name such as "Asia/Kolkata" or "America/Chicago"',
    ],
    [
      'a date that does not exist',
      slip((w) => (w['date'] = '2026-02-30')),
      'worksheet: "date": "2026-02-30" is not a date; write it as YYYY-MM-DD, for example "2026-10-09"',
    ],
    [
      'a waiting request without its received time (a missing column)',
      slip((w) => delete w['waiting'][1].received),
      'worksheet: waiting request W-02: "received" is missing; it must be a time such as "08:50"',
    ],
    [
      'a row without the waiting queue it should leave',
      slip((w) => delete w['transactions'][2].expect.queue),
      `worksheet: row L-02: "expect.queue" is missing; it must be a list of the waiting parties' names ([] when nobody waits)`,
    ],
    [
      'a held count typed as text',
      slip((w) => (w['transactions'][2].expect.held = '3')),
      'worksheet: row L-02: "expect.held" must be a whole number of seats, not "3"',
    ],
    [
      'a misspelt step',
      slip((w) => (w['transactions'][1].steps[0].type = 'cancle')),
      'worksheet: row L-01, step 1: "type" must be one of review, cancel, promote, accept, expire, join, retry, not "cancle"',
    ],
    [
      'a cancellation naming nobody',
      slip((w) => (w['transactions'][1].steps[0].ref = 'Z')),
      'worksheet: row L-01, step 1 (cancel): "Z" is not a registration, a waiting request or a party joined in an earlier step',
    ],
    [
      'a misspelt expiry rule',
      slip((w) => (w['policy'].onOfferExpired = 'leave')),
      'worksheet: "policy.onOfferExpired" is "leave-queue" or "keep-place", not "leave"',
    ],
    [
      'a time with its date',
      slip((w) => (w['transactions'][3].time = '2026-12-14 10:02:30')),
      'worksheet: row L-03: "2026-12-14 10:02:30" is not a time on 2026-12-14 in Asia/Kolkata (HH:mm or HH:mm:ss)',
    ],
    [
      'a row out of order',
      slip((w) => (w['transactions'][5].time = '10:01')),
      `worksheet: row L-05: 10:01 is earlier than row L-04 (10:02:30); every time is on 2026-12-14, the worksheet's "date", so the rows must run in time order (a worksheet covers one day, up to midnight)`,
    ],
    [
      'a duplicate request id',
      slip((w) => (w['waiting'][1].ref = 'W-01')),
      'worksheet: "W-01" names two starting parties; each reference must name one',
    ],
    [
      'a waiting party larger than the capacity',
      slip((w) => (w['waiting'][2].partySize = 18)),
      "worksheet: W-03's party size 18 is not a whole number from 1 to 17 (the capacity); groups never split, so a larger group can never be offered seats",
    ],
    [
      'a mistyped key on an accept step (its rule silently dropped: the accept was expected to succeed)',
      slip((w) => (w['transactions'][6].steps[0] = { type: 'accept', ref: 'W-02', expct: 'refused' })),
      'worksheet: row L-06, step 1 (accept): unknown key "expct"; it takes type, ref, expect',
    ],
    [
      "a waiting request's sequence under another key",
      slip((w) => {
        w['waiting'][1].seq = w['waiting'][1].sequence;
        delete w['waiting'][1].sequence;
      }),
      'worksheet: waiting request W-02: unknown key "seq"; it takes ref, partySize, received, sequence',
    ],
    [
      "a row's expected figures with a stray key",
      slip((w) => (w['transactions'][2].expect.availble = 4)),
      'worksheet: row L-02, "expect": unknown key "availble"; it takes confirmed, held, available, queue',
    ],
    [
      'a misspelt top-level key',
      slip((w) => {
        w['timezone'] = w['timeZone'];
        delete w['timeZone'];
      }),
      'worksheet: the worksheet: unknown key "timezone"; it takes name, timeZone, date, start, capacity, policy, decisions, reservations, waiting, transactions',
    ],
    [
      'a policy key the ledger does not read',
      slip((w) => (w['policy'].holdMinutes = 20)),
      'worksheet: "policy": unknown key "holdMinutes"; it takes order, holdSeconds, onOfferExpired',
    ],
    [
      'broken JSON (a missing comma)',
      LOTUS.replace('"capacity": 17,', '"capacity": 17'),
      'worksheet: FILE is not valid JSON (line 7, column 3): ',
    ],
  ];

  it.each(cases)(
    '%s',
    async (name, text, message) => {
      const { code, stdout, stderr } = await run(name.replace(/\W+/g, '-'), text);
      expect({ code, stdout, lines: stderr.split('\n').filter(Boolean).length, stderr }).toEqual({
        code: 1,
        stdout: '',
        lines: 1,
        stderr: message.endsWith(': ') ? expect.stringContaining(message) : `${message}\n`,
      });
    },
    60_000,
  );
});
