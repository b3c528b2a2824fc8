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

  /** The recipient: an email address (any case) or a phone number, national numbers read with the venue's country. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  to?: string;
}
