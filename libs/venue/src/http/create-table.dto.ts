import { IsPlainText } from '@hostboard/core';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class CreateTableDto {
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  // On the board and its floor plan: one line of plain text.
  @IsPlainText()
  label: string;

  @IsInt()
  @Min(1)
  @Max(200)
  capacity: number;
}
