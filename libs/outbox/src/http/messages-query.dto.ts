import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@hostboard/core';
import type { OutboxStatus } from '../outbox-message.entity.js';

/** What a manager reads when the recipient searched for is longer than any email address (RFC 5321) or phone number. */
export const TO_TOO_LONG = 'That is too long for a phone number or email address: 320 characters at most.';

/** A filter sent empty (`?status=`, a form's field left blank, or only spaces) is no filter. */
const NoFilterWhenEmpty = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));

/** `GET …/messages`: the paging every list takes (`limit`, `before`), and filters. */
export class MessagesQueryDto extends PageQueryDto {
  @NoFilterWhenEmpty()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  template?: string;

  @NoFilterWhenEmpty()
  @IsOptional()
  @IsIn(['email', 'sms'])
  channel?: 'email' | 'sms';

  /** `failed`: what a manager looks for after a bad evening (the guests who did not hear from us). */
  @NoFilterWhenEmpty()
  @IsOptional()
  @IsIn(['recorded', 'sending', 'sent', 'failed'])
  status?: OutboxStatus;

  /**
   * `true`: every message no guest got, or will ever get: refused by the provider (`failed`), or
   * `recorded` for good (a reason it will not be sent, or no provider for its channel). What a
   * manager looks for the morning after; `status=failed` alone answered "none" during the pilot,
   * when no provider is set up and nothing leaves the building. `false` is no filter.
   */
  @NoFilterWhenEmpty()
  @IsOptional()
  @IsIn(['true', 'false'])
  undelivered?: 'true' | 'false';

  /**
   * The recipient: an email address (any case) or a phone number, national numbers read with the
   * venue's country. Empty (or only spaces) is no filter: a search form sent with its field empty.
   */
  @NoFilterWhenEmpty()
  @IsOptional()
  @IsString()
  @MaxLength(320, { message: TO_TOO_LONG })
  to?: string;
}
