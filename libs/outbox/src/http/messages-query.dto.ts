import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `GET …/messages` filters and paging; query values arrive as text, so numbers are matched, then read. */
export class MessagesQueryDto {
  /** 1–500, default 100. */
  @IsOptional()
  @Matches(/^[1-9]\d{0,2}$/, { message: 'limit must be a whole number from 1 to 500' })
  limit?: string;

  /** The cursor from the previous page's `Link: <…>; rel="next"`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  before?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  template?: string;

  @IsOptional()
  @IsIn(['email', 'sms'])
  channel?: 'email' | 'sms';

  /** The recipient: an email address or an E.164 phone number, exactly as recorded. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  to?: string;
}
