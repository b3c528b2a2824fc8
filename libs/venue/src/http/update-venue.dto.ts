import { IsPlainText } from '@hostboard/core';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IsCountryCode } from '../venues/venue-country.js';
import type { OnOfferExpired, QueueOrder, QuoteModel } from '../venues/venue.entity.js';
import { VenueDecisionsDto } from './venue-decisions.dto.js';

export class PolicyPatchDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  holdSeconds?: number;

  @IsOptional()
  @IsIn(['keep-place', 'leave-queue'])
  onOfferExpired?: OnOfferExpired;

  @IsOptional()
  @IsBoolean()
  requireServiceWindow?: boolean;

  @IsOptional()
  @IsBoolean()
  oneEntryPerContact?: boolean;

  @IsOptional()
  @IsIn(['strict', 'host-pick'])
  order?: QueueOrder;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  poolCapacity?: number;

  /** Which estimate parties are told (both are computed and kept on every join). */
  @IsOptional()
  @IsIn(['turns', 'floor'])
  quoteModel?: QuoteModel;
}

export class UpdateVenueDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(160)
  // In guest emails and texts and in staff invitations' subject: one line of plain text.
  @IsPlainText()
  name?: string;

  /** ISO 3166-1 alpha-2 (national phone numbers are read with it); null clears it. */
  @IsOptional()
  @IsCountryCode()
  country?: string | null;

  @IsOptional()
  @IsBoolean()
  published?: boolean;

  @IsOptional()
  @IsBoolean()
  queueEnabled?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  queuePartyCap?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  termsVersion?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => PolicyPatchDto)
  policy?: PolicyPatchDto;

  /** Merged into the recorded decisions; allowed after registration opens (a review comes later). */
  @IsOptional()
  @ValidateNested()
  @Type(() => VenueDecisionsDto)
  decisions?: VenueDecisionsDto;
}
