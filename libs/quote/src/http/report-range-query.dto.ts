import { Matches } from 'class-validator';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A report's business dates, venue-local, both inclusive: the quote report's and the day report's. */
export class ReportRangeQueryDto {
  @Matches(DATE, { message: 'from must be a date like 2026-06-12' })
  from: string;

  @Matches(DATE, { message: 'to must be a date like 2026-06-12' })
  to: string;
}
