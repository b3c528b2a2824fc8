import { IsPlainText } from '@hostboard/core';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Worksheet section 1's decisions: free text (line breaks allowed, no other controls), every field optional. */
export class VenueDecisionsDto {
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsPlainText({ lines: true })
  whoMayCancel?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsPlainText({ lines: true })
  retries?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsPlainText({ lines: true })
  discrepancyOwner?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsPlainText({ lines: true })
  ruleChanges?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  // A person's name, printed in the ledger report: one line.
  @IsPlainText()
  reviewer?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  @IsPlainText({ lines: true })
  reviewDate?: string;
}
