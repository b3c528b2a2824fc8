import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** Venue-local; an end before the start runs past midnight (its business date is the day it starts). */
export class CreateServiceWindowDto {
  /** ISO weekdays: 1 = Monday … 7 = Sunday. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(7, { each: true })
  days: number[];

  @IsString()
  @Matches(HH_MM, { message: 'start must be a venue-local time "HH:mm", such as "17:30"' })
  start: string;

  @IsString()
  @Matches(HH_MM, { message: 'end must be a venue-local time "HH:mm", such as "23:00"' })
  end: string;

  @IsInt()
  @Min(1)
  @Max(720)
  turnMinutes: number;

  @IsOptional()
  @IsBoolean()
  depositRequired?: boolean;
}
