import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Role } from '@hostboard/core';
import { StaffInvitation, type InvitationDelivery, type InvitationEndReason } from './staff-invitation.entity.js';

/**
 * An invitation with the people it names: the invited account (by the name its inviter gave, never
 * the account's own) and the member who sent it. Never its token hash.
 */
export interface DescribedInvitation {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  delivery: InvitationDelivery;
  invitedBy: string;
  senderEmail: string | null;
  senderName: string | null;
  /** The sender's role at the venue now (null once removed): the link works only while it may grant `role`. */
  senderRole: Role | null;
  createdAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  endReason: InvitationEndReason | null;
}

const DESCRIBED = `
  SELECT i.id, i.user_id AS "userId", u.email, COALESCE(i.name, u.email) AS name, i.role, i.delivery, i.invited_by AS "invitedBy",
         s.email AS "senderEmail", s.name AS "senderName", sm.role AS "senderRole",
         i.created_at AS "createdAt", i.expires_at AS "expiresAt", i.ended_at AS "endedAt", i.end_reason AS "endReason"
    FROM staff_invitations i
    JOIN staff_users u ON u.id = i.user_id
    LEFT JOIN staff_users s ON s.id = i.invited_by
    LEFT JOIN venue_memberships sm ON sm.venue_id = i.venue_id AND sm.user_id = i.invited_by`;

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

  /**
   * The venue's open invitations (not ended, `now` strictly before the expiry, as a claim checks),
   * newest first. The partial unique index on open ones keeps this to one per person.
   */
  listOpen(tx: EntityManager, venueId: string, now: Date): Promise<DescribedInvitation[]> {
    return tx.query(
      `${DESCRIBED} WHERE i.venue_id = $1 AND i.ended_at IS NULL AND i.expires_at > $2 ORDER BY i.created_at DESC, i.id`,
      [venueId, now],
    );
  }

  /**
   * One invitation of this venue, its row locked (a claim of the same link waits, then sees it
   * ended). Another venue's id is not found, like an unknown one.
   */
  async lockInVenue(tx: EntityManager, venueId: string, id: string): Promise<DescribedInvitation | null> {
    const rows: DescribedInvitation[] = await tx.query(`${DESCRIBED} WHERE i.id = $1 AND i.venue_id = $2 FOR UPDATE OF i`, [
      id,
      venueId,
    ]);
    return rows[0] ?? null;
  }

  /** The open invitation of a user to a venue (not ended, not expired at `now`), locked, or null. */
  findOpen(tx: EntityManager, venueId: string, userId: string, now: Date): Promise<StaffInvitation | null> {
    return tx
      .createQueryBuilder(StaffInvitation, 'i')
      .setLock('pessimistic_write')
      .where('i.venue_id = :venueId AND i.user_id = :userId AND i.ended_at IS NULL AND i.expires_at > :now', {
        venueId,
        userId,
        now,
      })
      .getOne();
  }

  /** Ends the open invitations of a user to a venue (a newer one replaces them; a removal cancels them). */
  async endOpen(tx: EntityManager, venueId: string, userId: string, at: Date, reason: InvitationEndReason): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(StaffInvitation)
      .set({ endedAt: at, endReason: reason })
      .where('venue_id = :venueId AND user_id = :userId AND ended_at IS NULL', { venueId, userId })
      .execute();
  }

  async end(tx: EntityManager, id: string, at: Date, reason: InvitationEndReason): Promise<void> {
    await tx.update(StaffInvitation, { id }, { endedAt: at, endReason: reason });
  }
}
