import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class ChangePasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  currentPassword: string;

  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  newPassword: string;
}

export class ClaimInvitationDto {
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/)
  token: string;

  /** The password the claimant chooses. */
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password: string;

  /** Needed only for a link handed over in person to an account that already had a password. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  currentPassword?: string;
}

/** Reads what an invitation link joins, without claiming it (the claim page shows it first). */
export class PreviewInvitationDto {
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/)
  token: string;
}
