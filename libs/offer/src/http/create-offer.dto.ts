import { AcceptedAtOnce } from '@hostboard/core';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsUUID,
  Min,
  arrayMaxSize,
  arrayMinSize,
  isArray,
  isInt,
  isUUID,
  min,
} from 'class-validator';

const FIELDS = new Set(['entryId', 'entryVersion', 'tableIds']);

/**
 * The decorators below as one plain check, for the bodies every offer sends (accepted-at-once.ts): it
 * accepts only what they accept, with class-validator's own functions and arguments. Anything else (a
 * missing or unknown key, a null, a wrong type) goes through class-validator, which gives the refusal.
 */
export function offerBodyAcceptedAtOnce(body: Record<string, unknown>): boolean {
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) return false;
  const { entryId, entryVersion, tableIds } = body;
  if (!isUUID(entryId) || !isInt(entryVersion) || !min(entryVersion, 1)) return false;
  if (!isArray(tableIds) || !arrayMinSize(tableIds, 1) || !arrayMaxSize(tableIds, 4)) return false;
  return tableIds.every((id) => isUUID(id, 'all'));
}

@AcceptedAtOnce(offerBodyAcceptedAtOnce)
export class CreateOfferDto {
  @IsUUID()
  entryId: string;

  /** The entry's version as the host saw it; an older one is refused as stale. */
  @IsInt()
  @Min(1)
  entryVersion: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @IsUUID('all', { each: true })
  tableIds: string[];
}
