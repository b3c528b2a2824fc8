import { IsInstant } from '@hostboard/core';

export class MoveClockDto {
  /** An instant with offset; the sandbox clock moves forward only. */
  @IsInstant()
  now: string;
}
