import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '@hostboard/core';
import type { ReservationState } from '@hostboard/allocator';

const STATES: ReservationState[] = ['HELD', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'EXPIRED'];

/**
 * `GET …/reservations`: the paging every list takes (`limit`, `before`), and `state`, so a workshop
 * board's list of confirmed groups reads those alone, not every hold the pool ever made.
 */
export class ReservationsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(STATES, { message: `state must be one of ${STATES.join(', ')}` })
  state?: ReservationState;
}
