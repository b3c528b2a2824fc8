import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import type { OnOfferExpired, QueueOrder, QuoteModel } from '../venues/venue.entity.js';

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
  name?: string;

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
}
