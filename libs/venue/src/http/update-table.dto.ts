import { IsPlainText } from '@hostboard/core';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/** A manager's change to a table. Absent fields stay; `x: null, y: null` takes it off the plan. */
export class UpdateTableDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  // On the board and its floor plan: one line of plain text.
  @IsPlainText()
  label?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  capacity?: number;

  /** Percent of the plan's width, 0–100. */
  @ValidateIf((o: UpdateTableDto) => o.x !== undefined && o.x !== null)
  @IsInt()
  @Min(0)
  @Max(100)
  x?: number | null;

  /** Percent of the plan's height, 0–100. */
  @ValidateIf((o: UpdateTableDto) => o.y !== undefined && o.y !== null)
  @IsInt()
  @Min(0)
  @Max(100)
  y?: number | null;
}
