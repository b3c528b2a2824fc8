import { IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '@hostboard/core';

/** `?subjectId=` narrows the history to one record; `?limit=&before=` page it (newest first). */
export class HistoryQueryDto extends PageQueryDto {
  @IsOptional()
  @IsUUID()
  subjectId?: string;
}
