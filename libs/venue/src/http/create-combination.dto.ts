import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsUUID, Max, Min } from 'class-validator';

/** An approved combination: 2–4 of the venue's tables and what they seat together. */
export class CreateCombinationDto {
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(4)
  @IsUUID('all', { each: true })
  tableIds: string[];

  @IsInt()
  @Min(1)
  @Max(200)
  capacity: number;
}
