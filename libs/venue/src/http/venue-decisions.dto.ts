import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Worksheet section 1's decisions: free text, every field optional. */
export class VenueDecisionsDto {
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  whoMayCancel?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  retries?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  discrepancyOwner?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  ruleChanges?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  reviewer?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  reviewDate?: string;
}
