import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';

export class MoveReservationDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(4)
  @IsUUID('all', { each: true })
  tableIds: string[];
}
