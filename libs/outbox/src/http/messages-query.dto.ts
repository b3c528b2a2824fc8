import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@hostboard/core';
import type { OutboxStatus } from '../outbox-message.entity.js';

/** `GET …/messages`: the paging every list takes (`limit`, `before`), and filters. */
export class MessagesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  template?: string;

  @IsOptional()
  @IsIn(['email', 'sms'])
  channel?: 'email' | 'sms';

  /** `failed`: what a manager looks for after a bad evening (the guests who did not hear from us). */
  @IsOptional()
  @IsIn(['recorded', 'sending', 'sent', 'failed'])
  status?: OutboxStatus;

  /** The recipient: an email address (any case) or a phone number, national numbers read with the venue's country. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  to?: string;
}
