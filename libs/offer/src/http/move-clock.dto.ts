import { IsISO8601 } from 'class-validator';

export class MoveClockDto {
  /** An instant with offset; the sandbox clock moves forward only. */
  @IsISO8601({ strict: true })
  now: string;
}
