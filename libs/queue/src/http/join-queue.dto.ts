import { IsEmailAddress, IsPlainText } from '@hostboard/core';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/** A party joining the queue. Types are strict: "4" is not a party size. */
export class JoinQueueDto {
  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // Read aloud, shown on the board and written into emails: one line of plain text, and not blank.
  @IsPlainText()
  name: string;

  /** Bounded here only against absurd numbers; the venue's own limit is checked by the join. */
  @IsInt()
  @Min(1)
  @Max(100000)
  partySize: number;

  /**
   * A blank email (a form's empty box: "" or spaces) is no email, as a blank phone is no phone: a
   * party that left both blank is told the spec's "A queue party needs an email or a phone number.",
   * not that an address it never typed is malformed.
   */
  @IsOptional()
  @ValidateIf((_: unknown, value: unknown) => typeof value !== 'string' || value.trim() !== '')
  @IsEmailAddress()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  phone?: string;
}
