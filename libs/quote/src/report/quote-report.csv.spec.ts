import { quoteReportCsv } from './quote-report.csv.js';
import type { QuoteReportEntry } from './quote-report.service.js';

const entry = (name: string): QuoteReportEntry => ({
  entryId: 'e1',
  name,
  partySize: 2,
  businessDate: '2026-06-12',
  daypart: 'dinner',
  receivedAt: '2026-06-12T23:00:00.000Z',
  offeredAt: '2026-06-12T23:02:00.000Z',
  receivedLocal: '2026-06-12 18:00:00',
  offeredLocal: '2026-06-12 18:02:00',
  actualMinutes: 2,
  turnsMinutes: 60,
  floorMinutes: null,
  shownModel: 'turns',
});

/** The name field of the entry's line: between the daypart and the party size. */
const nameField = (name: string): string => /,dinner,(.*),2,2026-06-12T23:00/.exec(quoteReportCsv([entry(name)]))?.[1] ?? '';

describe('the quote report as CSV', () => {
  it('a header, one line per entry, empty fields for what a model did not quote', () => {
    expect(quoteReportCsv([entry('Ana')]).split('\r\n')).toEqual([
      '\ufeffentryId,businessDate,daypart,name,partySize,receivedAt,offeredAt,receivedLocal,offeredLocal,actualMinutes,turnsMinutes,floorMinutes,shownModel',
      'e1,2026-06-12,dinner,Ana,2,2026-06-12T23:00:00.000Z,2026-06-12T23:02:00.000Z,2026-06-12 18:00:00,2026-06-12 18:02:00,2,60,,turns',
      '',
    ]);
  });

  it('quotes commas and quotes, and defuses text a spreadsheet would run as a formula', () => {
    expect(nameField('Smith, "Jo"')).toBe('"Smith, ""Jo"""');
    expect(nameField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(nameField('-1+2')).toBe("'-1+2");
    // A semicolon starts a cell in Excel set to a semicolon separator: each part is defused.
    expect(nameField('Ana;=1+1; @x;Bo')).toBe("Ana;'=1+1;' @x;Bo");
  });
});
