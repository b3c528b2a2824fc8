import { IsPlainText } from '@hostboard/core';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ENTRY_TAGS, type EntryTag } from '../details/entry-details.service.js';

const NOTE_LIMIT = 200;

/**
 * An entry's staff details. Sent whole (`note` and `tags`), they replace what is stored. A screen
 * that sends only what its host changed, with what it read when its sheet opened (`noteWas`,
 * `tagsWas`), leaves what another screen saved since: a field left out stays as it is, a tag the
 * host did not touch stays as it is, and a note changed on both screens is refused (409).
 */
export class EntryDetailsDto {
  /** The note (null for none); left out: unchanged. */
  @ValidateIf((o: EntryDetailsDto) => o.note != null)
  @IsString()
  @MaxLength(NOTE_LIMIT)
  // Free text on the board: line breaks and tabs, but no other controls or text-direction characters.
  @IsPlainText({ lines: true })
  note?: string | null;

  /** The note as the screen read it; with `note`, refused if another screen changed it since. */
  @ValidateIf((o: EntryDetailsDto) => o.noteWas != null)
  @IsString()
  @MaxLength(NOTE_LIMIT)
  noteWas?: string | null;

  /** The tags; left out: unchanged. */
  @ValidateIf((o: EntryDetailsDto) => o.tags !== undefined)
  @IsArray()
  @ArrayMaxSize(ENTRY_TAGS.length)
  @IsIn(ENTRY_TAGS, { each: true })
  tags?: EntryTag[];

  /** The tags as the screen read them; with `tags`, only the tags added or removed since are applied. */
  @ValidateIf((o: EntryDetailsDto) => o.tagsWas !== undefined)
  @IsArray()
  @ArrayMaxSize(ENTRY_TAGS.length)
  @IsIn(ENTRY_TAGS, { each: true })
  tagsWas?: EntryTag[];
}
