import { Matches } from 'class-validator';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Business dates, venue-local, both inclusive. */
export class QuoteReportQueryDto {
  @Matches(DATE, { message: 'from must be a date like 2026-06-12' })
  from: string;

  @Matches(DATE, { message: 'to must be a date like 2026-06-12' })
  to: string;
}
