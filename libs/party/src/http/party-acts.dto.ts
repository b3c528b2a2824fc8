import { IsOptional, IsUUID } from 'class-validator';

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
