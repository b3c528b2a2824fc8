import { IsEmailAddress, IsPlainText } from '@hostboard/core';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/** A staff correction of a queue entry. Absent fields stay as they are; `email: null` or `phone: null` removes that channel. */
export class CorrectEntryDto {
  /** The version the staff member read; another one is refused as stale. */
  @IsInt()
  @Min(1)
  entryVersion: number;

  @ValidateIf((o: CorrectEntryDto) => o.name !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // Read aloud, shown on the board and written into emails: one line of plain text, and not blank.
  @IsPlainText()
  name?: string;

  @ValidateIf((o: CorrectEntryDto) => o.partySize !== undefined)
  @IsInt()
  @Min(1)
  @Max(100000)
  partySize?: number;

  @IsOptional()
  @IsEmailAddress()
  @MaxLength(254)
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  phone?: string | null;
}
