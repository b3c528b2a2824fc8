import { csvField } from '@hostboard/quote';
import type { DayReport } from './day-report.service.js';

/**
 * The day report for a spreadsheet: one line per business date, header first, a UTF-8 byte-order
 * mark for Excel on Windows, each field written by the quote CSV's guard (RFC 4180 quoting, an apostrophe
 * before anything a spreadsheet would run as a formula). Today every field is a date or a number the
 * server wrote; the guard stays so a text field added later cannot forget it.
 */
const COLUMNS = [
  'businessDate',
  'joined',
  'people',
  'seated',
  'peopleSeated',
  'noShow',
  'left',
  'removed',
  'offerEnded',
  'dayClosed',
  'stillWaiting',
  'toSeat',
  'offersMade',
  'offersAccepted',
  'offersExpired',
  'offersWithdrawn',
  'offersCancelled',
  'waitCount',
  'waitMedianMinutes',
  'waitP90Minutes',
] as const;

export function dayReportCsv(report: DayReport): string {
  const lines = report.days.map((d) => {
    const row: Record<(typeof COLUMNS)[number], string | number | null> = {
      businessDate: d.businessDate,
      joined: d.joined,
      people: d.people,
      ...d.outcomes,
      peopleSeated: d.peopleSeated,
      offersMade: d.offers.made,
      offersAccepted: d.offers.accepted,
      offersExpired: d.offers.expired,
      offersWithdrawn: d.offers.withdrawn,
      offersCancelled: d.offers.cancelled,
      waitCount: d.waitToSeat.count,
      waitMedianMinutes: d.waitToSeat.medianMinutes,
      waitP90Minutes: d.waitToSeat.p90Minutes,
    };
    return COLUMNS.map((c) => csvField(row[c])).join(',');
  });
  return '\ufeff' + [COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
