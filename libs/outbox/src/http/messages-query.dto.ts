import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@hostboard/core';

/** `GET …/messages`: the paging every list takes (`limit`, `before`), and filters. */
export class MessagesQueryDto extends PageQueryDto {
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
