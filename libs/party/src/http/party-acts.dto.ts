import { IsOptional, IsUUID } from 'class-validator';
import { ExchangeSessionDto } from '@hostboard/queue';

/** Optional: the offer the party saw. Another entry's offer is not found; absent: the entry's newest offer. */
export class AcceptOfferDto {
  @IsOptional()
  @IsUUID()
  offerId?: string;
}

/** Optional: the entry the party means. Another entry is not found; absent: the session's own entry. */
export class LeaveQueueDto {
  @IsOptional()
  @IsUUID()
  entryId?: string;
}

/**
 * An accept by the queue token itself (`POST /v1/queue-status/accept`): the token, the page's `key`
 * for the session it opens once the accept succeeds (ExchangeSessionDto), and the offer the party saw.
 */
export class AcceptByTokenDto extends ExchangeSessionDto {
  @IsUUID()
  offerId: string;
}
