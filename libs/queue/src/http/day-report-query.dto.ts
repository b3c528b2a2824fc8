import { Matches } from 'class-validator';

// The quote report's rules, word for word: the two reports take the same range the same way.
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Business dates, venue-local, both inclusive. */
export class DayReportQueryDto {
  @Matches(DATE, { message: 'from must be a date like 2026-06-12' })
  from: string;

  @Matches(DATE, { message: 'to must be a date like 2026-06-12' })
  to: string;
}
