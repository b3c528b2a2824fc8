import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Role } from '@hostboard/core';
import { VenueMembership } from './venue-membership.entity.js';

@Injectable()
export class MembershipRepository {
  async roleOf(tx: EntityManager, venueId: string, userId: string): Promise<Role | null> {
    const row = await tx.findOneBy(VenueMembership, { venueId, userId });
    return row?.role ?? null;
  }

  /** Inserts or changes a role; returns the role held before (null if none). */
  async upsert(tx: EntityManager, venueId: string, userId: string, role: Role, at: Date): Promise<Role | null> {
    const before = await tx.findOne(VenueMembership, { where: { venueId, userId }, lock: { mode: 'pessimistic_write' } });
    if (before) await tx.update(VenueMembership, { venueId, userId }, { role });
    else await tx.insert(VenueMembership, { venueId, userId, role, createdAt: at });
    return before?.role ?? null;
  }

  async remove(tx: EntityManager, venueId: string, userId: string): Promise<void> {
    await tx.delete(VenueMembership, { venueId, userId });
  }

  /** Whether the user belongs to any venue besides this one. */
  async belongsElsewhere(tx: EntityManager, venueId: string, userId: string): Promise<boolean> {
    const rows = await tx.query<unknown[]>(`SELECT 1 FROM venue_memberships WHERE user_id = $1 AND venue_id <> $2 LIMIT 1`, [
      userId,
      venueId,
    ]);
    return rows.length > 0;
  }

  /**
   * The venue's members. `passwordResettable`: the account is this venue's to reset (it created it,
   * its holder has not chosen their own password, and it belongs to no other venue), the same
   * conditions `MembershipService.resetPassword` checks, so the Staff tab offers only what succeeds.
   */
  list(
    tx: EntityManager,
    venueId: string,
  ): Promise<Array<{ userId: string; role: Role; email: string; name: string; passwordResettable: boolean }>> {
    return tx.query(
      `SELECT m.user_id AS "userId", m.role, u.email, u.name,
              COALESCE(u.provisioned_by_venue_id = $1 AND u.must_change_password
                       AND NOT EXISTS (SELECT 1 FROM venue_memberships o WHERE o.user_id = m.user_id AND o.venue_id <> $1),
                       false) AS "passwordResettable"
         FROM venue_memberships m JOIN staff_users u ON u.id = m.user_id
        WHERE m.venue_id = $1 ORDER BY u.email`,
      [venueId],
    );
  }
}
