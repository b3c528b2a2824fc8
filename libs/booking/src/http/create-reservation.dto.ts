import { IsEmailAddress, IsInstant, IsPlainText } from '@hostboard/core';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

export class CreateReservationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // Read aloud, shown on the board and written into emails: one line of plain text.
  @IsPlainText()
  name: string;

  @IsInt()
  @Min(1)
  @Max(100000)
  partySize: number;

  @IsOptional()
  @IsEmailAddress()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  phone?: string;

  /** Table venues: the booking's start. */
  @IsOptional()
  @IsInstant()
  start?: string;

  /** Table venues: one table the party fits, or an approved combination. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @IsUUID('all', { each: true })
  tableIds?: string[];
}
