import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Any string is looked at (and counted); a token of the wrong shape is simply TOKEN_INVALID. */
export class ExchangeTokenDto {
  @IsString()
  @MaxLength(512)
  token: string;
}

/**
 * The exchange, optionally keyed by the page that asks: `key` is 32 random bytes (base64url, 43
 * characters) the page draws and keeps. The session opened is that key's (its secret), so a retry
 * of the same exchange with the same token and key, after an answer lost on the way back, opens the
 * same session again for a short while (QueueSessionService.exchange); any other key is refused.
 */
export class ExchangeSessionDto extends ExchangeTokenDto {
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'key must be 43 base64url characters' })
  key?: string;
}
