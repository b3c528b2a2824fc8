import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Reservation, type ReservationState } from './reservation.entity.js';

@Injectable()
export class ReservationRepository {
  async insert(tx: EntityManager, r: Reservation): Promise<void> {
    await tx.insert(Reservation, r);
  }

  find(tx: EntityManager, venueId: string, id: string): Promise<Reservation | null> {
    return tx.findOneBy(Reservation, { venueId, id });
  }

  list(tx: EntityManager, venueId: string): Promise<Reservation[]> {
    return tx.find(Reservation, { where: { venueId }, order: { createdAt: 'ASC', id: 'ASC' }, take: 5000 });
  }

  /**
   * Moves a reservation from one of `from` to `to`. Guarded by the current state, so a repeated
   * release changes nothing (invariant 6); answers whether this call made the change.
   */
  async transition(
    tx: EntityManager,
    id: string,
    from: ReservationState[],
    to: ReservationState,
    at: Date,
    reason: string | null = null,
  ): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .update(Reservation)
      .set({ state: to, updatedAt: at, stateReason: reason })
      .where('id = :id AND state IN (:...from)', { id, from })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
