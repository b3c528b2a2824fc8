import { IsPlainText } from '@hostboard/core';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ENTRY_TAGS, type EntryTag } from '../details/entry-details.service.js';

/** The whole of an entry's staff details: the note (null for none) and the tags. */
export class EntryDetailsDto {
  @ValidateIf((o: EntryDetailsDto) => o.note !== null)
  @IsString()
  @MaxLength(200)
  // Free text on the board: line breaks and tabs, but no other controls or text-direction characters.
  @IsPlainText({ lines: true })
  note: string | null;

  @IsArray()
  @ArrayMaxSize(ENTRY_TAGS.length)
  @IsIn(ENTRY_TAGS, { each: true })
  tags: EntryTag[];
}
