import { IsInstant } from '@hostboard/core';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsTimeZone } from './is-time-zone.validator.js';
import type { Preset } from '../venues/venue.entity.js';

export class CreateVenueDto {
  @IsString()
  @Matches(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { message: 'slug must be 1–64 lower-case letters, digits or dashes' })
  slug: string;

  @IsString()
  @MinLength(1)
  @MaxLength(160)
  name: string;

  @IsTimeZone()
  timeZone: string;

  @IsIn(['restaurant', 'workshop'])
  preset: Preset;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  poolCapacity?: number;

  @IsOptional()
  @IsBoolean()
  sandbox?: boolean;

  /** The sandbox clock's starting instant. */
  @IsOptional()
  @IsInstant()
  clock?: string;
}
