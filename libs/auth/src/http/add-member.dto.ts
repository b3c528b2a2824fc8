import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsEmailAddress, IsPlainText, type Role, ROLES } from '@hostboard/core';
import { IsUsualForm } from './usual-form.validator.js';

export class AddMemberDto {
  @IsEmailAddress()
  @IsUsualForm()
  @MaxLength(254)
  email: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // Shown on the staff list and the board: one line of plain text.
  @IsPlainText()
  name?: string;

  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password?: string;

  @IsIn(ROLES)
  role: Role;
}
