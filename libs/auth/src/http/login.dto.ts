import { IsString, MaxLength, MinLength } from 'class-validator';

export class LoginDto {
  @IsString()
  @MinLength(3)
  @MaxLength(254)
  email: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}
