import { Type } from 'class-transformer';
import { IsInstant, IsPlainText } from '@hostboard/core';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { VenueDecisionsDto } from './venue-decisions.dto.js';
import { IsTimeZone } from './is-time-zone.validator.js';
import { IsCountryCode } from '../venues/venue-country.js';
import type { Preset } from '../venues/venue.entity.js';

export class CreateVenueDto {
  @IsString()
  @Matches(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, { message: 'slug must be 1–64 lower-case letters, digits or dashes' })
  slug: string;

  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // In guest emails and texts and in staff invitations' subject: one line of plain text.
  @IsPlainText()
  name: string;

  @IsTimeZone()
  timeZone: string;

  /** ISO 3166-1 alpha-2; absent: the one country the time zone names, if it names one. */
  @IsOptional()
  @IsCountryCode()
  country?: string;

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

  /** The worksheet's decisions (who may cancel, retries, discrepancy owner, rule changes, reviewer, date). */
  @IsOptional()
  @ValidateNested()
  @Type(() => VenueDecisionsDto)
  decisions?: VenueDecisionsDto;
}
