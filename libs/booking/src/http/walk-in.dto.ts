import { Transform } from 'class-transformer';
import { IsPlainText } from '@hostboard/core';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, IsUUID, Max, Min, MaxLength } from 'class-validator';

/** A walk-in seated at once: its tables (one that seats it, or an approved combination) and size. */
export class WalkInDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @IsUUID('all', { each: true })
  tableIds: string[];

  @IsInt()
  @Min(1)
  @Max(100000)
  partySize: number;

  /**
   * "Walk-in at T2" when none is given. A name of only spaces is none (trimmed to nothing, it is
   * dropped before the checks, so it takes the default); a host leaves the field blank to mean that.
   */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value))
  @IsOptional()
  @IsString()
  @MaxLength(160)
  @IsPlainText()
  name?: string;
}
