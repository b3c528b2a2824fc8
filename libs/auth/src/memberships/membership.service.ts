import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, DomainException, roleRank, TransactionRunner, type Role } from '@hostboard/core';
import { AuditLog } from '../audit/audit.log.js';
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

/** Who holds which role at a venue, and who may change that. */
@Injectable()
export class MembershipService {
  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly memberships: MembershipRepository,
    private readonly users: StaffUserRepository,
    private readonly accounts: StaffAccountService,
    private readonly audit: AuditLog,
  ) {}

  roleOf(venueId: string, userId: string): Promise<Role | null> {
    return this.tx.read((manager) => this.memberships.roleOf(manager, venueId, userId));
  }

  /** Inside the venue-creating transaction: the creator becomes its owner. */
  async grantOwner(tx: EntityManager, venueId: string, userId: string): Promise<void> {
    await this.memberships.upsert(tx, venueId, userId, 'owner', this.clock.now());
    await this.audit.record(tx, { action: 'membership-added', venueId, subjectUserId: userId, details: { role: 'owner' } });
  }

  /**
   * Managers add hosts; owners add any role. An existing account keeps its password; a new one needs
   * one. Changing a role needs the right to grant both the old and the new role.
   */
  async addMember(venueId: string, actorId: string, input: AddMemberInput): Promise<MemberView> {
    // Hashing is slow: do it before taking the venue lock, and only when an account may be created.
    const passwordHash = input.password !== undefined ? await this.accounts.hashPassword(input.password) : undefined;
    const email = normaliseEmail(input.email);
    return this.tx.venueCommand(venueId, async ({ manager }) => {
      const actorRole = await this.memberships.roleOf(manager, venueId, actorId);
      if (!actorRole) throw DomainException.notFound('The venue was not found.');
      assertMayGrant(actorRole, input.role);
      let user = await this.users.findByEmail(manager, email);
      if (!user) {
        if (passwordHash === undefined) throw DomainException.validation('A new staff member needs a password.');
        user = await this.accounts.insert(manager, { email, name: input.name ?? email, passwordHash });
      }
      const current = await this.memberships.roleOf(manager, venueId, user.id);
      if (current) assertMayGrant(actorRole, current);
      if (current === 'owner' && input.role !== 'owner') await this.assertAnotherOwner(manager, venueId, user.id);
      const before = await this.memberships.upsert(manager, venueId, user.id, input.role, this.clock.now());
      await this.audit.record(manager, {
        action: before ? 'membership-changed' : 'membership-added',
        venueId,
        subjectUserId: user.id,
        details: { role: input.role, previousRole: before },
      });
      return { userId: user.id, email: user.email, name: user.name, role: input.role };
    });
  }

  list(venueId: string): Promise<MemberView[]> {
    return this.tx.run(({ manager }) => this.memberships.list(manager, venueId));
  }

  private async assertAnotherOwner(tx: EntityManager, venueId: string, userId: string): Promise<void> {
    const members = await this.memberships.list(tx, venueId);
    if (!members.some((m) => m.role === 'owner' && m.userId !== userId)) {
      throw DomainException.validation('A venue keeps at least one owner.');
    }
  }
}

/** Owners grant any role; managers grant only the host role (and only to non-managers). */
function assertMayGrant(actor: Role, role: Role): void {
  const allowed = actor === 'owner' || (actor === 'manager' && roleRank(role) < roleRank('manager'));
  if (!allowed) throw DomainException.forbidden(`A ${actor} cannot grant or change the ${role} role.`);
}
