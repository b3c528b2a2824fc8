import { IsString, MaxLength } from 'class-validator';

/** The token as the party shows it; a token of the wrong shape is simply TOKEN_INVALID. */
export class DeskLookupDto {
  @IsString()
  @MaxLength(512)
  token: string;
}
