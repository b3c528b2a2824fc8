import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '@hostboard/core';

/** How the one-time link reached the person: by email (proves control of it) or handed over in person. */
export type InvitationDelivery = 'email' | 'in-person';

/**
 * Why a link stopped working: `claimed` by its holder, `replaced` by a newer invitation to the same
 * person, or `cancelled` (by a manager, or with the member's removal). An expired one has no end.
 */
export type InvitationEndReason = 'claimed' | 'replaced' | 'cancelled';

/**
 * An offer of a role at a venue to an account that grants nothing until its holder claims it with
 * the one-time link. Only the SHA-256 of the link's secret is kept.
 */
@Entity({ name: 'staff_invitations' })
@Index('staff_invitations_user_idx', ['userId'])
@Check('staff_invitations_role_check', `"role" IN ('host', 'manager', 'owner')`)
@Check('staff_invitations_delivery_check', `"delivery" IN ('email', 'in-person')`)
@Check('staff_invitations_end_reason_check', `"end_reason" IN ('claimed', 'replaced', 'cancelled')`)
@Check('staff_invitations_ended_with_reason', `("ended_at" IS NULL) = ("end_reason" IS NULL)`)
// One open link per person and venue (a newer invitation ends the older one); also the venue's list of open ones.
@Index('staff_invitations_one_open', ['venueId', 'userId'], { unique: true, where: `"ended_at" IS NULL` })
export class StaffInvitation {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @ForeignKey('staff_users', { onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  /**
   * The person's name as the inviter typed it (or the email): listed instead of the account's own
   * name, which is its holder's and not for a venue they have not joined (null on older rows).
   */
  @Column({ type: 'text', nullable: true })
  name: string | null;

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

  /** Claimed, replaced by a later invitation or cancelled: either way the link no longer works. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  /** Why it ended; set together with `endedAt` (a check constraint keeps them together). */
  @Column({ name: 'end_reason', type: 'text', nullable: true })
  endReason: InvitationEndReason | null;
}
