import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AppConfig,
  Clock,
  DomainException,
  ErrorCode,
  limitAddress,
  mayGrant,
  type Role,
  roleRank,
  TransactionRunner,
  type Tx,
} from '@hostboard/core';
import { OutboxWriter } from '@hostboard/outbox';
import { AuditLog } from '../audit/audit.log.js';
import { MembershipRepository } from '../memberships/membership.repository.js';
import { AttemptLimiter } from '../rate-limit/attempt.limiter.js';
import { InvitationLimiter } from '../rate-limit/invitation.limiter.js';
import { AuthService, type SessionView } from '../sessions/auth.service.js';
import { hashSecret, newSecretToken, SECRET_TOKEN_SHAPE } from '../sessions/secret-token.js';
import type { StaffUser } from '../users/staff-user.entity.js';
import { StaffUserRepository } from '../users/staff-user.repository.js';
import { claimPath, holdBackInvitationEmail, invitationEmail, STAFF_INVITATION_TEMPLATE } from './invitation.email.js';
import type { InvitationDelivery, StaffInvitation } from './staff-invitation.entity.js';
import { StaffInvitationRepository } from './staff-invitation.repository.js';

export const INVITATION_DAYS = 7;
const INVITATION_INVALID = 'This invitation link is not valid. Ask the venue for a new one.';
const CURRENT_PASSWORD_MISSING = 'You already have an account with a password. Enter your current password as well, then accept.';
const CURRENT_PASSWORD_WRONG = 'The current password is not right. Enter the password you sign in with now.';

export interface InvitationView {
  id: string;
  expiresAt: string;
  delivery: InvitationDelivery;
  /** Shown once, and only when it is handed over in person (no SMTP): null when it went by email. */
  token: string | null;
  link: string | null;
}

/** What an invitation link joins, for its claim page (`POST /v1/auth/invitations/preview`). */
export interface InvitationPreview {
  venueName: string;
  role: Role;
  /** The name its inviter gave (null on links made before names were kept), never the account's own. */
  name: string | null;
  expiresAt: string;
  /** The claim will ask for the account's current password (judged as the claim judges it, now). */
  needsCurrentPassword: boolean;
}

/**
 * Invitations: a role at a venue that is granted only when the holder of the email claims it. With
 * SMTP configured the one-time link goes by email (the outbox relay), which proves control of the
 * address; otherwise it is shown once to the inviter to hand over in person, and for an account that
 * already had a password the claim must also give that password, so an inviter holding the link
 * cannot take the account over. Claiming sets a new password and ends every earlier session.
 */
@Injectable()
export class InvitationService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly invitations: StaffInvitationRepository,
    private readonly users: StaffUserRepository,
    private readonly memberships: MembershipRepository,
    private readonly auth: AuthService,
    private readonly limiter: AttemptLimiter,
    private readonly emailLimiter: InvitationLimiter,
    private readonly outbox: OutboxWriter,
    private readonly audit: AuditLog,
  ) {}

  /** Inside the adding transaction, under the venue lock; a newer invitation replaces an open one. */
  async create(
    tx: Tx,
    input: { venueId: string; user: StaffUser; name: string; role: Role; invitedBy: string; accountExisted: boolean },
  ): Promise<InvitationView> {
    const { manager } = tx;
    const now = this.clock.now();
    const token = newSecretToken();
    const delivery: InvitationDelivery = this.config.SMTP_URL ? 'email' : 'in-person';
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
    // A newer invitation replaces the open one, which ends it: only for one who may cancel it. A
    // manager inviting as host the person the owner invited as manager ended the owner's link.
    const open = await this.invitations.findOpen(manager, input.venueId, input.user.id, now);
    if (open) {
      const actorRole = await this.memberships.roleOf(manager, input.venueId, input.invitedBy);
      if (!mayGrant(actorRole, open.role)) {
        throw DomainException.forbidden(`A ${actorRole ?? 'non-member'} cannot replace an invitation to the ${open.role} role.`);
      }
    }
    // Counted before anything is written: a refusal rolls the whole add back, the open link stays.
    // Each email counts, the same invitation sent again too (a replay of one request is not a send).
    if (delivery === 'email') await this.emailLimiter.email(input.invitedBy, input.user.email);
    await this.invitations.endOpen(manager, input.venueId, input.user.id, now, 'replaced');
    await holdBackInvitationEmail(this.outbox, manager, input.venueId, input.user.email);
    const id = randomUUID();
    await this.invitations.insert(manager, {
      id,
      venueId: input.venueId,
      userId: input.user.id,
      name: input.name,
      role: input.role,
      tokenHash: hashSecret(token),
      delivery,
      accountExisted: input.accountExisted,
      invitedBy: input.invitedBy,
      createdAt: now,
      expiresAt,
      endedAt: null,
      endReason: null,
    });
    if (delivery === 'email') {
      const venueName = await venueNameOf(manager, input.venueId);
      const mail = invitationEmail({ venueName, role: input.role, token, days: INVITATION_DAYS });
      await this.outbox.record(manager, {
        venueId: input.venueId,
        to: input.user.email,
        template: STAFF_INVITATION_TEMPLATE,
        ...mail,
        at: now,
      });
    }
    await this.audit.record(manager, {
      action: 'invitation-created',
      venueId: input.venueId,
      subjectUserId: input.user.id,
      details: { role: input.role, delivery, invitationId: id },
    });
    // Whether the claim will ask for a current password is not said: it would tell the inviter
    // that the email has an account (and the claim judges it by the account as it is then).
    const inPerson = delivery === 'in-person';
    return {
      id,
      expiresAt: expiresAt.toISOString(),
      delivery,
      token: inPerson ? token : null,
      link: inPerson ? claimPath(token) : null,
    };
  }

  /** A member's removal cancels the links still open to them. */
  async cancelOpen(manager: EntityManager, venueId: string, userId: string): Promise<void> {
    await this.invitations.endOpen(manager, venueId, userId, this.clock.now(), 'cancelled');
    const user = await this.users.findById(manager, userId);
    if (user) await holdBackInvitationEmail(this.outbox, manager, venueId, user.email);
  }

  /**
   * What a link would join, read without claiming it: only for a link the claim would take now (open,
   * not expired, its holder's account still there, its sender still able to grant its role); every
   * other link answers the claim's own TOKEN_INVALID, so no kind of dead link can be told from
   * another or from an unknown one. Counted per address before the link is looked at, as a claim is,
   * and a working link gives its point back. Whether a current password will be asked for is the one
   * thing said about the account: the claim form must know it, and a claim without one says as much.
   */
  async preview(token: string): Promise<InvitationPreview> {
    const addressKey = `invitation:ip:${limitAddress()}`;
    await this.limiter.attempt([addressKey]);
    const answer = await this.tx.read(async (manager) => {
      const live = await this.liveInvitation(manager, token);
      if (!live) return null;
      const { invitation: found, user } = live;
      return {
        venueName: await venueNameOf(manager, found.venueId),
        role: found.role,
        name: found.name,
        expiresAt: found.expiresAt.toISOString(),
        needsCurrentPassword: needsCurrentPassword(found, user),
      };
    });
    if (!answer) throw invalid();
    await this.limiter.succeeded([], [addressKey]);
    return answer;
  }

  /**
   * Claims a link once: counted per address before it is looked at (like a token exchange). Sets the
   * new password, ends every earlier session of the account, grants the role (never lowering one the
   * person already holds there) and answers a fresh session.
   */
  async claim(token: string, password: string, currentPassword?: string): Promise<SessionView> {
    const addressKey = `invitation:ip:${limitAddress()}`;
    await this.limiter.attempt([addressKey]);
    // A dead link is refused before any password question: asked for the current password, a link its
    // sender can no longer grant could be told from an unknown one (and used to try passwords).
    const live = await this.tx.read((manager) => this.liveInvitation(manager, token));
    if (!live) throw invalid();
    const { invitation: found, user } = live;
    // Judged by the account as it is now, not as it was when the link was made: a link sent while
    // the email had no password yet (no account, or another venue's unclaimed invitation) is still
    // in its inviter's hands after the holder has chosen a password elsewhere, and claiming it would
    // set a password of the inviter's choosing and end the holder's sessions.
    if (needsCurrentPassword(found, user)) {
      // The inviter holds this link and may try passwords with it: each try counts as a failed
      // sign-in of the account would, so the link is no way around the login limits.
      if (currentPassword === undefined || !(await this.auth.checkPasswordOf(user, currentPassword))) {
        if (currentPassword !== undefined)
          await this.tx.run(({ manager }) =>
            this.audit.record(manager, {
              action: 'invitation-claim-failed',
              venueId: found.venueId,
              subjectUserId: user.id,
              details: { invitationId: found.id },
            }),
          );
        // The claim form has no email field: the words name the one thing missing or wrong.
        throw new DomainException(
          ErrorCode.UNAUTHENTICATED,
          currentPassword === undefined ? CURRENT_PASSWORD_MISSING : CURRENT_PASSWORD_WRONG,
        );
      }
    }
    await this.limiter.succeeded([], [addressKey]);
    await this.auth.assertOwnChoice(user, password, 'password');
    const passwordHash = await this.auth.hashNew(password);
    return this.tx.run(async (tx) => {
      const { manager } = tx;
      // Judged again under the locks, by the same conditions: the link may have been claimed, replaced,
      // cancelled or made ungrantable since the read above.
      const locked = await this.liveInvitation(manager, token, 'lock');
      if (!locked) throw invalid();
      const { invitation, user: holder } = locked;
      // The password checked above (or its absence) is still the account's: a password chosen in
      // between, through another link, is not overwritten by a claim that never had to give it.
      if (holder.passwordHash !== user.passwordHash) throw invalid();
      const now = this.clock.now();
      await this.invitations.end(manager, invitation.id, now, 'claimed');
      await this.users.setPassword(manager, invitation.userId, passwordHash, false);
      const endedSessions = await this.auth.endAllSessions(tx, invitation.userId);
      const before = await this.memberships.roleOf(manager, invitation.venueId, invitation.userId);
      const role = before && roleRank(before) > roleRank(invitation.role) ? before : invitation.role;
      await this.memberships.upsert(manager, invitation.venueId, invitation.userId, role, now);
      const actor = `staff:${invitation.userId}`;
      await this.audit.record(manager, {
        action: 'invitation-claimed',
        actor,
        venueId: invitation.venueId,
        subjectUserId: invitation.userId,
        details: { invitationId: invitation.id, endedSessions },
      });
      await this.audit.record(manager, {
        action: before ? 'membership-changed' : 'membership-added',
        actor,
        venueId: invitation.venueId,
        subjectUserId: invitation.userId,
        details: { role, previousRole: before, invitationId: invitation.id },
      });
      const fresh = await this.users.findById(manager, invitation.userId);
      if (!fresh) throw invalid();
      return this.auth.openSession(manager, fresh);
    });
  }

  /**
   * The link `token` names, with its holder's account, when a claim would take it now; null for every
   * dead link: unknown (or not a token's shape), claimed, replaced, cancelled, expired (`now` not
   * strictly before its expiry), its account gone, or its sender no longer able to grant its role (a
   * manager removed or made a host since sending it leaves no working link the owner cannot see).
   * The preview and the claim both judge by this alone, so each answers every dead link with the same
   * TOKEN_INVALID and neither can drift from the other. `lock`: the claim's rows, FOR UPDATE.
   */
  private async liveInvitation(
    manager: EntityManager,
    token: string,
    lock?: 'lock',
  ): Promise<{ invitation: StaffInvitation; user: StaffUser } | null> {
    if (!SECRET_TOKEN_SHAPE.test(token)) return null;
    const tokenHash = hashSecret(token);
    const invitation = lock
      ? await this.invitations.lockByTokenHash(manager, tokenHash)
      : await this.invitations.findByTokenHash(manager, tokenHash);
    if (!invitation || invitation.endedAt || this.clock.now().getTime() >= invitation.expiresAt.getTime()) return null;
    const user = lock
      ? await this.users.lockById(manager, invitation.userId)
      : await this.users.findById(manager, invitation.userId);
    if (!user) return null;
    if (!mayGrant(await this.memberships.roleOf(manager, invitation.venueId, invitation.invitedBy), invitation.role)) return null;
    return { invitation, user };
  }
}

/**
 * An in-person link to an account that has (or had, as the link was made) a password: its inviter
 * holds the link, so the claim must also prove knowledge of that password. An emailed link proves
 * control of the address instead.
 */
function needsCurrentPassword(found: StaffInvitation, user: StaffUser): boolean {
  return found.delivery === 'in-person' && (found.accountExisted || user.passwordHash !== null);
}

function invalid(): DomainException {
  return new DomainException(ErrorCode.TOKEN_INVALID, INVITATION_INVALID);
}

async function venueNameOf(manager: EntityManager, venueId: string): Promise<string> {
  const rows: Array<{ name: string }> = await manager.query('SELECT name FROM venues WHERE id = $1', [venueId]);
  return rows[0]?.name ?? 'a venue';
}
