import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '@hostboard/core';

/** How the one-time link reached the person: by email (proves control of it) or handed over in person. */
export type InvitationDelivery = 'email' | 'in-person';

/**
 * An offer of a role at a venue to an account that grants nothing until its holder claims it with
 * the one-time link. Only the SHA-256 of the link's secret is kept.
 */
@Entity({ name: 'staff_invitations' })
@Index('staff_invitations_user_idx', ['userId'])
@Check('staff_invitations_role_check', `"role" IN ('host', 'manager', 'owner')`)
@Check('staff_invitations_delivery_check', `"delivery" IN ('email', 'in-person')`)
export class StaffInvitation {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @ForeignKey('staff_users', { onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'text' })
  role: Role;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ type: 'text' })
  delivery: InvitationDelivery;

  /** The account had a password when invited: an in-person link must also prove knowledge of it. */
  @Column({ name: 'account_existed', type: 'boolean' })
  accountExisted: boolean;

  @Column({ name: 'invited_by', type: 'uuid' })
  invitedBy: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** Claimed, or replaced by a later invitation: either way the link no longer works. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
