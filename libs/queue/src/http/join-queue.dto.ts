import { AcceptedAtOnce, IsEmailAddress, IsPlainText, isEmailAddress, plainTextProblem } from '@hostboard/core';
import {
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  isInt,
  max,
  maxLength,
  min,
  minLength,
} from 'class-validator';

const FIELDS = new Set(['name', 'partySize', 'email', 'phone']);

/**
 * The decorators below as one plain check, for the bodies nearly every join sends (accepted-at-once.ts):
 * it accepts only what they accept. A blank email (skipped by the ValidateIf below), a null or a key
 * not listed goes through class-validator instead.
 */
export function joinBodyAcceptedAtOnce(body: Record<string, unknown>): boolean {
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) return false;
  const { name, partySize, email, phone } = body;
  if (typeof name !== 'string' || !minLength(name, 1) || !maxLength(name, 160) || plainTextProblem(name, 'name') !== null) {
    return false;
  }
  if (!isInt(partySize) || !min(partySize, 1) || !max(partySize, 100000)) return false;
  if (
    email !== undefined &&
    (typeof email !== 'string' || email.trim() === '' || !isEmailAddress(email) || !maxLength(email, 254))
  ) {
    return false;
  }
  return phone === undefined || (typeof phone === 'string' && maxLength(phone, 32));
}

/** A party joining the queue. Types are strict: "4" is not a party size. */
@AcceptedAtOnce(joinBodyAcceptedAtOnce)
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
