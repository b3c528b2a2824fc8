import type { QuoteReportEntry } from './quote-report.service.js';

const COLUMNS: Array<keyof QuoteReportEntry> = [
  'entryId',
  'businessDate',
  'daypart',
  'name',
  'partySize',
  'receivedAt',
  'offeredAt',
  'receivedLocal',
  'offeredLocal',
  'actualMinutes',
  'turnsMinutes',
  'floorMinutes',
  'shownModel',
];

/** What a spreadsheet runs as a formula at the start of a cell (spaces before it, for one that trims them). */
const FORMULA_START = /^\s*[=+\-@]|^[\t\r]/;

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (a guest could type a name
 * starting with "=") is prefixed with an apostrophe, and so is each part after a ';': Excel set to a
 * semicolon list separator (France, Germany, much of Europe) starts a new cell at every ';' of a
 * line, inside quotes too (a quote opens a quoted cell only at a cell's start), so "Ana;=HYPERLINK(…)"
 * would put a formula in a cell of its own.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string')
    s = s
      .split(';')
      .map((part) => (FORMULA_START.test(part) ? `'${part}` : part))
      .join(';');
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The rows behind the quote report, one line per offered entry, header first. The file starts with
 * a UTF-8 byte-order mark: Excel on Windows reads a CSV without one in the machine's old code page,
 * and a guest's "Zoë" or "李" arrives garbled.
 */
export function quoteReportCsv(entries: QuoteReportEntry[]): string {
  return (
    '\ufeff' + [COLUMNS.join(','), ...entries.map((e) => COLUMNS.map((c) => csvField(e[c])).join(','))].join('\r\n') + '\r\n'
  );
}
