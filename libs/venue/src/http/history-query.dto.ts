import { IsOptional, IsUUID } from 'class-validator';

export class HistoryQueryDto {
  @IsOptional()
  @IsUUID()
  subjectId?: string;
}
