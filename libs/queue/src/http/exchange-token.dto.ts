import { IsString, MaxLength } from 'class-validator';

/** Any string is looked at (and counted); a token of the wrong shape is simply TOKEN_INVALID. */
export class ExchangeTokenDto {
  @IsString()
  @MaxLength(512)
  token: string;
}
