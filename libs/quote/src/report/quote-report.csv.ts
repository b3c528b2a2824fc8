import type { QuoteReportEntry } from './quote-report.service.js';

const COLUMNS: Array<keyof QuoteReportEntry> = [
  'entryId',
  'businessDate',
  'daypart',
  'name',
  'partySize',
  'receivedAt',
  'offeredAt',
  'actualMinutes',
  'turnsMinutes',
  'floorMinutes',
  'shownModel',
];

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (a guest could type a name
 * starting with "=") is prefixed with an apostrophe.
 */
function field(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The rows behind the quote report, one line per offered entry, header first. */
export function quoteReportCsv(entries: QuoteReportEntry[]): string {
  return [COLUMNS.join(','), ...entries.map((e) => COLUMNS.map((c) => field(e[c])).join(','))].join('\r\n') + '\r\n';
}
