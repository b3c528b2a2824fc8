import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, DomainException, ErrorCode, mayGrant, TransactionRunner, type Role } from '@hostboard/core';
import { OutboxWriter } from '@hostboard/outbox';
import { AuditLog } from '../audit/audit.log.js';
import { MembershipRepository } from '../memberships/membership.repository.js';
import { holdBackInvitationEmail } from './invitation.email.js';
import type { InvitationDelivery } from './staff-invitation.entity.js';
import { StaffInvitationRepository, type DescribedInvitation } from './staff-invitation.repository.js';

/** An invitation as the staff page shows it; never its token or the token's hash. */
export interface InvitationListing {
  id: string;
  email: string;
  name: string;
  role: Role;
  delivery: InvitationDelivery;
  /** The member who sent it (null only if that account no longer exists). */
  sentBy: { userId: string; email: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
}

export interface PendingInvitation extends InvitationListing {
  /** The one asking may cancel it: they may grant its role (a manager: host invitations only). */
  cancellable: boolean;
  /**
   * Its sender may still grant its role here. While not (removed, or made a host), the link answers
   * as any dead link does, and it works again only if they are given that right back.
   */
  linkWorks: boolean;
}

export interface CancelledInvitation extends InvitationListing {
  cancelledAt: string;
  message: string;
}

/** What a second cancel (or one of a link that is no longer open) answers, by how the link ended. */
type EndedState = 'claimed' | 'replaced' | 'cancelled' | 'expired';

/**
 * The venue's open invitation links, for its managers and owners to see and to cancel: a link sent
 * to the wrong address, or to a new host who never started, is stopped before anyone claims it.
 */
@Injectable()
export class PendingInvitationsService {
  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly invitations: StaffInvitationRepository,
    private readonly memberships: MembershipRepository,
    private readonly audit: AuditLog,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Open ones only (not ended, not expired at the clock's now), newest first. */
  list(venueId: string, actorId: string): Promise<PendingInvitation[]> {
    return this.tx.run(async ({ manager }) => {
      const actorRole = await this.actorRole(manager, venueId, actorId);
      const open = await this.invitations.listOpen(manager, venueId, this.clock.now());
      return open.map((i) => ({
        ...listing(i),
        cancellable: mayGrant(actorRole, i.role),
        linkWorks: mayGrant(i.senderRole, i.role),
      }));
    });
  }

  /**
   * Ends an open link: a claim of it from now on answers TOKEN_INVALID like any dead link, and its
   * email, if the relay has not taken it yet, is never sent. Only one
   * who may grant its role cancels it. A link already claimed, replaced, cancelled or expired is
   * refused 409 with how it ended, so a second tap reads plainly; a retry with the same
   * Idempotency-Key gets the first answer.
   */
  cancel(venueId: string, actorId: string, invitationId: string): Promise<CancelledInvitation> {
    return this.tx.venueCommand(venueId, async ({ manager }) => {
      const actorRole = await this.actorRole(manager, venueId, actorId);
      const invitation = await this.invitations.lockInVenue(manager, venueId, invitationId);
      if (!invitation) throw DomainException.notFound('That invitation was not found.');
      if (!mayGrant(actorRole, invitation.role)) {
        throw DomainException.forbidden(`A ${actorRole} cannot cancel an invitation to the ${invitation.role} role.`);
      }
      const now = this.clock.now();
      const ended = endedState(invitation, now);
      if (ended) throw alreadyEnded(invitation, ended);
      await this.invitations.end(manager, invitation.id, now, 'cancelled');
      await holdBackInvitationEmail(this.outbox, manager, venueId, invitation.email);
      await this.audit.record(manager, {
        action: 'invitation-cancelled',
        venueId,
        subjectUserId: invitation.userId,
        details: {
          invitationId: invitation.id,
          role: invitation.role,
          delivery: invitation.delivery,
          invitedBy: invitation.invitedBy,
        },
      });
      return {
        ...listing(invitation),
        cancelledAt: now.toISOString(),
        message: `The invitation to ${invitation.email} as ${invitation.role} was cancelled; its link no longer works.`,
      };
    });
  }

  private async actorRole(tx: EntityManager, venueId: string, actorId: string): Promise<Role> {
    const role = await this.memberships.roleOf(tx, venueId, actorId);
    if (!role) throw DomainException.notFound('The venue was not found.');
    return role;
  }
}

function listing(i: DescribedInvitation): InvitationListing {
  return {
    id: i.id,
    email: i.email,
    name: i.name,
    role: i.role,
    delivery: i.delivery,
    sentBy:
      i.senderEmail !== null && i.senderName !== null ? { userId: i.invitedBy, email: i.senderEmail, name: i.senderName } : null,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  };
}

/** How a link stopped being open, or null while it is (expiry as a claim sees it: at the instant, it is over). */
function endedState(i: DescribedInvitation, now: Date): EndedState | null {
  if (i.endedAt) return i.endReason ?? 'cancelled';
  return now.getTime() >= i.expiresAt.getTime() ? 'expired' : null;
}

function alreadyEnded(i: DescribedInvitation, state: EndedState): DomainException {
  const messages: Record<EndedState, string> = {
    claimed: `This invitation was already accepted, so there is nothing to cancel. To take the access away, remove ${i.email} from the staff list.`,
    replaced: `This invitation was already replaced by a newer one to ${i.email}; cancel that one instead.`,
    cancelled: 'This invitation was already cancelled; its link no longer works.',
    expired: 'This invitation has already expired; its link no longer works.',
  };
  return new DomainException(ErrorCode.CONFLICT, messages[state], {
    state,
    endedAt: (i.endedAt ?? i.expiresAt).toISOString(),
  });
}
