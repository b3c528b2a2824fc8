import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { StaffInvitation } from './staff-invitation.entity.js';

@Injectable()
export class StaffInvitationRepository {
  async insert(tx: EntityManager, row: StaffInvitation): Promise<void> {
    await tx.insert(StaffInvitation, row);
  }

  /** Locked: of two racing claims of one link, one wins. */
  lockByTokenHash(tx: EntityManager, tokenHash: string): Promise<StaffInvitation | null> {
    return tx.findOne(StaffInvitation, { where: { tokenHash }, lock: { mode: 'pessimistic_write' } });
  }

  findByTokenHash(tx: EntityManager, tokenHash: string): Promise<StaffInvitation | null> {
    return tx.findOneBy(StaffInvitation, { tokenHash });
  }

  /** Ends the open invitations of a user to a venue (a newer one replaces them; a removal cancels them). */
  async endOpen(tx: EntityManager, venueId: string, userId: string, at: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(StaffInvitation)
      .set({ endedAt: at })
      .where('venue_id = :venueId AND user_id = :userId AND ended_at IS NULL', { venueId, userId })
      .execute();
  }

  async end(tx: EntityManager, id: string, at: Date): Promise<void> {
    await tx.update(StaffInvitation, { id }, { endedAt: at });
  }
}
