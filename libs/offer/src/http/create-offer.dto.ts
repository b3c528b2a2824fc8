import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsUUID, Min } from 'class-validator';

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
