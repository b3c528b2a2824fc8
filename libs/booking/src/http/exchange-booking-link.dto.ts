import { IsString, MaxLength } from 'class-validator';

export class ExchangeBookingLinkDto {
  @IsString()
  @MaxLength(256)
  token: string;
}
