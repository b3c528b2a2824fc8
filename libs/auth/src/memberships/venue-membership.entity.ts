import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '@hostboard/core';

/** A person's role at one venue; a person may hold different roles at different venues. */
@Entity({ name: 'venue_memberships' })
@Index('venue_memberships_user_idx', ['userId'])
@Check('venue_memberships_role_check', `"role" IN ('host', 'manager', 'owner')`)
export class VenueMembership {
  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @ForeignKey('staff_users', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'text' })
  role: Role;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
