import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, DomainException, mayGrant, TransactionRunner, type Role } from '@hostboard/core';
import { AuditLog } from '../audit/audit.log.js';
import { InvitationService, type InvitationView } from '../invitations/invitation.service.js';
import { AuthService } from '../sessions/auth.service.js';
import { StaffAccessEvents } from '../sessions/staff-access.events.js';
import { normaliseEmail } from '../users/normalise-email.js';
import { StaffAccountService } from '../users/staff-account.service.js';
import { StaffUserRepository } from '../users/staff-user.repository.js';
import { MembershipRepository } from './membership.repository.js';

export interface AddMemberInput {
  email: string;
  name?: string;
  password?: string;
  role: Role;
}

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

/** A member as the venue's staff list shows it: whether the venue may reset their password. */
export interface ListedMember extends MemberView {
  passwordResettable: boolean;
}

/**
 * What adding a member did, said plainly: `created` (a new account with the given password, to be
 * changed at first sign-in, member at once), `invited` (nothing granted until the email's owner
 * claims the one-time link) or `updated` (an existing member's role changed).
 */
export interface AddMemberResult extends MemberView {
  outcome: 'created' | 'invited' | 'updated';
  message: string;
  invitation?: InvitationView;
}

/** Who holds which role at a venue, and who may change that. */
@Injectable()
export class MembershipService {
  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly memberships: MembershipRepository,
    private readonly users: StaffUserRepository,
    private readonly accounts: StaffAccountService,
    private readonly invitations: InvitationService,
    private readonly auth: AuthService,
    private readonly audit: AuditLog,
    private readonly events: StaffAccessEvents,
  ) {}

  roleOf(venueId: string, userId: string): Promise<Role | null> {
    return this.tx.read((manager) => this.memberships.roleOf(manager, venueId, userId));
  }

  /**
   * Inside the venue-creating transaction: the creator becomes its owner. Not while their password
   * is someone else's choice: that manager could sign in as the new venue's owner. The account row
   * is locked, so a reset of it at another venue waits and then sees this venue (or this waits and
   * sees the reset's must-change).
   */
  async grantOwner(tx: EntityManager, venueId: string, userId: string): Promise<void> {
    const user = await this.users.lockById(tx, userId);
    if (!user) throw DomainException.unauthenticated();
    if (user.mustChangePassword) throw DomainException.forbidden(CHOOSE_OWN_PASSWORD_FIRST);
    await this.memberships.upsert(tx, venueId, userId, 'owner', this.clock.now());
    await this.audit.record(tx, { action: 'membership-added', venueId, subjectUserId: userId, details: { role: 'owner' } });
  }

  /**
   * Managers add hosts; owners add any role. An email with no account and a password: a new account,
   * member at once, its password to be changed at first sign-in. Any other email that is not yet a
   * member (an existing account, or no password given): an invitation that grants nothing until it
   * is claimed; a password given for an existing account is never used. Already a member: the role
   * changes, which needs the right to grant both the old and the new role.
   */
  async addMember(venueId: string, actorId: string, input: AddMemberInput): Promise<AddMemberResult> {
    // Hashing is slow: do it before taking the venue lock, and only when an account may be created.
    const passwordHash = input.password !== undefined ? await this.accounts.hashPassword(input.password) : undefined;
    const email = normaliseEmail(input.email);
    return this.tx.venueCommand(
      venueId,
      async (tx) => {
        const { manager } = tx;
        const actorRole = await this.actorRole(manager, venueId, actorId);
        assertMayGrant(actorRole, input.role);
        const existing = await this.users.findByEmail(manager, email);
        if (!existing && passwordHash !== undefined) {
          const user = await this.accounts.insert(manager, {
            email,
            name: input.name ?? email,
            passwordHash,
            provisionedByVenueId: venueId,
          });
          await this.audit.record(manager, { action: 'account-created', venueId, subjectUserId: user.id, details: { email } });
          await this.grant(manager, venueId, user.id, input.role, null);
          return {
            outcome: 'created',
            userId: user.id,
            email: user.email,
            name: user.name,
            role: input.role,
            message: `A new account was created for ${user.email} with the password you chose, and added as ${input.role}. Hand the password over in person; they are asked to choose their own when they first sign in.`,
          };
        }
        const current = existing ? await this.memberships.roleOf(manager, venueId, existing.id) : null;
        if (existing && current) {
          assertMayGrant(actorRole, current);
          if (current === 'owner' && input.role !== 'owner') await this.assertAnotherOwner(manager, venueId, existing.id);
          await this.grant(manager, venueId, existing.id, input.role, current);
          return {
            outcome: 'updated',
            userId: existing.id,
            email: existing.email,
            name: existing.name,
            role: input.role,
            message: `${existing.email} was already a member; their role is now ${input.role}.${
              passwordHash !== undefined ? ' Their password is theirs: the one you gave was not used.' : ''
            }`,
          };
        }
        // An invitation: for an account that exists (its password is its holder's, whatever was
        // sent here), or for a new email given no password (the holder chooses one when claiming).
        // The answer is the same whether the email had an account, a pending one, or none: any
        // signed-in user can open a venue and ask. It names the person as the inviter did, never by
        // the account's own name, and says nothing of whether a password exists.
        const user = existing ?? (await this.accounts.insert(manager, { email, name: input.name ?? email, passwordHash: null }));
        const accountExisted = existing?.passwordHash != null;
        const name = input.name ?? email;
        const invitation = await this.invitations.create(tx, {
          venueId,
          user,
          name,
          role: input.role,
          invitedBy: actorId,
          accountExisted,
        });
        // Only an existing account is invited although a password was given (a new email with one
        // is created above): that much the inviter can tell anyway by signing in with it.
        const passwordNote =
          passwordHash !== undefined ? `${email} already has an account, so the password you gave was not used. ` : '';
        const delivery =
          invitation.delivery === 'email'
            ? 'We emailed them a one-time link.'
            : 'Hand them the one-time link below in person; it is shown only this once. If they already have an account, accepting also asks for its current password.';
        return {
          outcome: 'invited',
          userId: user.id,
          email,
          name,
          role: input.role,
          message: `${passwordNote}${email} is invited as ${input.role}; nothing is granted until they accept. ${delivery}`,
          invitation,
        };
      },
      // A replay must not show the one-time link again.
      {
        storedAs: (r) => (r.invitation ? { ...r, invitation: { ...r.invitation, token: null, link: null } } : r),
        readsActorRoleItself: true,
      },
    );
  }

  /**
   * The members, with `passwordResettable` as it is for the one asking: the account is the venue's to
   * reset and the asker may manage that member's role (a manager: hosts only), as resetPassword checks.
   */
  list(venueId: string, actorId: string): Promise<ListedMember[]> {
    return this.tx.run(async ({ manager }) => {
      const actorRole = await this.actorRole(manager, venueId, actorId);
      const members = await this.memberships.list(manager, venueId);
      return members.map((m) => ({ ...m, passwordResettable: m.passwordResettable && mayGrant(actorRole, m.role) }));
    });
  }

  /** Managers change hosts only (and only to host); owners change anyone; the last owner stays. */
  async changeRole(venueId: string, actorId: string, userId: string, role: Role): Promise<MemberView> {
    return this.tx.venueCommand(
      venueId,
      async ({ manager }) => {
        const { actorRole, current } = await this.managedMember(manager, venueId, actorId, userId);
        assertMayGrant(actorRole, role);
        if (current === 'owner' && role !== 'owner') await this.assertAnotherOwner(manager, venueId, userId);
        await this.grant(manager, venueId, userId, role, current);
        const member = (await this.memberships.list(manager, venueId)).find((m) => m.userId === userId);
        if (!member) throw DomainException.notFound('That person is not a member of this venue.');
        return member;
      },
      SELF_CHECKED,
    );
  }

  /**
   * Removes a member at once: every later request of theirs for this venue is 404, and after commit
   * their board sockets leave the venue's room on every api process. Open invitations end too.
   */
  async remove(venueId: string, actorId: string, userId: string): Promise<void> {
    await this.tx.venueCommand(
      venueId,
      async (tx) => {
        const { manager } = tx;
        const { current } = await this.managedMember(manager, venueId, actorId, userId);
        if (current === 'owner') await this.assertAnotherOwner(manager, venueId, userId);
        await this.memberships.remove(manager, venueId, userId);
        await this.invitations.cancelOpen(manager, venueId, userId);
        await this.audit.record(manager, {
          action: 'membership-removed',
          venueId,
          subjectUserId: userId,
          details: { previousRole: current },
        });
        tx.afterCommit(() => this.events.publish({ kind: 'membership-ended', venueId, userId }));
      },
      SELF_CHECKED,
    );
  }

  /**
   * A manager or owner sets a new initial password for an account this venue provisioned and whose
   * holder never chose their own (still must-change): every session of it ends. Any other account's
   * password belongs to its holder.
   */
  async resetPassword(venueId: string, actorId: string, userId: string, password: string): Promise<{ endedSessions: number }> {
    const passwordHash = await this.accounts.hashPassword(password);
    return this.tx.venueCommand(
      venueId,
      async (tx) => {
        const { manager } = tx;
        await this.managedMember(manager, venueId, actorId, userId);
        const user = await this.users.lockById(manager, userId);
        if (!user || user.provisionedByVenueId !== venueId || !user.mustChangePassword) {
          throw DomainException.forbidden(
            'Only an account this venue created and whose holder has not yet chosen their own password can be reset here; they can change it themselves.',
          );
        }
        // The account is not this venue's alone once it belongs to another (one it created, or joined):
        // a reset here would hand this venue's managers that venue's access too.
        if (await this.memberships.belongsElsewhere(manager, venueId, userId)) {
          throw DomainException.forbidden(
            'This person also works at another venue, so their password cannot be reset here; they can change it themselves.',
          );
        }
        await this.users.setPassword(manager, userId, passwordHash, true);
        const endedSessions = await this.auth.endAllSessions(tx, userId);
        await this.audit.record(manager, {
          action: 'password-reset',
          venueId,
          subjectUserId: userId,
          details: { endedSessions },
        });
        return { endedSessions };
      },
      SELF_CHECKED,
    );
  }

  private async grant(tx: EntityManager, venueId: string, userId: string, role: Role, before: Role | null): Promise<void> {
    await this.memberships.upsert(tx, venueId, userId, role, this.clock.now());
    await this.audit.record(tx, {
      action: before ? 'membership-changed' : 'membership-added',
      venueId,
      subjectUserId: userId,
      details: { role, previousRole: before },
    });
  }

  private async actorRole(tx: EntityManager, venueId: string, actorId: string): Promise<Role> {
    const role = await this.memberships.roleOf(tx, venueId, actorId);
    if (!role) throw DomainException.notFound('The venue was not found.');
    return role;
  }

  /**
   * The preamble of a command on one member: the actor's role (404 for a non-member, as the guard),
   * the member's (404 for a non-member), and whether the actor may manage that role.
   */
  private async managedMember(
    tx: EntityManager,
    venueId: string,
    actorId: string,
    userId: string,
  ): Promise<{ actorRole: Role; current: Role }> {
    const actorRole = await this.actorRole(tx, venueId, actorId);
    const current = await this.memberOrNotFound(tx, venueId, userId);
    assertMayGrant(actorRole, current);
    return { actorRole, current };
  }

  private async memberOrNotFound(tx: EntityManager, venueId: string, userId: string): Promise<Role> {
    const role = await this.memberships.roleOf(tx, venueId, userId);
    if (!role) throw DomainException.notFound('That person is not a member of this venue.');
    return role;
  }

  private async assertAnotherOwner(tx: EntityManager, venueId: string, userId: string): Promise<void> {
    const members = await this.memberships.list(tx, venueId);
    if (!members.some((m) => m.role === 'owner' && m.userId !== userId)) {
      throw DomainException.validation('A venue keeps at least one owner.');
    }
  }
}

/** The staff list's commands read the actor's role under the venue's lock themselves (`actorRole`). */
const SELF_CHECKED = { readsActorRoleItself: true } as const;

export const CHOOSE_OWN_PASSWORD_FIRST =
  'Choose your own password before opening a venue: the one you sign in with was chosen by someone else.';

/** Owners grant any role; managers grant only the host role (and only to non-managers). */
function assertMayGrant(actor: Role, role: Role): void {
  if (!mayGrant(actor, role)) throw DomainException.forbidden(`A ${actor} cannot grant or change the ${role} role.`);
}
