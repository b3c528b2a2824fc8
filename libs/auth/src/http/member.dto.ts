import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { ROLES, type Role } from '@hostboard/core';

export class ChangeRoleDto {
  @IsIn(ROLES)
  role: Role;
}

export class ResetPasswordDto {
  @IsString()
  @MinLength(8)
  @MaxLength(1024)
  password: string;
}
