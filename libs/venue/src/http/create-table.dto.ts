import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class CreateTableDto {
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  label: string;

  @IsInt()
  @Min(1)
  @Max(200)
  capacity: number;
}
