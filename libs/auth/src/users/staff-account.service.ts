import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, DomainException, TransactionRunner } from '@hostboard/core';
import { AuditLog } from '../audit/audit.log.js';
import { normaliseEmail } from './normalise-email.js';
import { PasswordHasher } from './password.hasher.js';
import type { StaffUser } from './staff-user.entity.js';
import { StaffUserRepository } from './staff-user.repository.js';

export const MIN_PASSWORD_LENGTH = 8;

/** Staff accounts: the first owner, and accounts created when a member is added. */
@Injectable()
export class StaffAccountService {
  private readonly logger = new Logger(StaffAccountService.name);

  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly users: StaffUserRepository,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Creates the account if the email is new; an existing account is left as it is (a restart with the
   * same BOOTSTRAP_OWNER_* must not reset a password someone has since changed). Returns whether it created one.
   */
  async ensureAccount(
    input: { email: string; password: string; name?: string },
    action: 'owner-created',
  ): Promise<{ user: StaffUser; created: boolean }> {
    const email = normaliseEmail(input.email);
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw DomainException.validation(`A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
    }
    const passwordHash = await this.hasher.hash(input.password);
    return this.tx.run(async ({ manager }) => {
      const existing = await this.users.findByEmail(manager, email);
      if (existing) return { user: existing, created: false };
      const user = await this.insert(manager, { email, name: input.name ?? email, passwordHash });
      await this.audit.record(manager, { action, actor: 'system', subjectUserId: user.id, details: { email } });
      this.logger.log(`created staff account ${email}`);
      return { user, created: true };
    });
  }

  /**
   * Inside a caller's transaction (adding a member with a new account). Hash the password before.
   * `provisionedByVenueId`: a manager of that venue chose the password, so it must be changed at
   * first sign-in. No password at all: an invited account nobody can sign in to until it is claimed.
   */
  insert(
    tx: EntityManager,
    input: { email: string; name: string; passwordHash: string | null; provisionedByVenueId?: string },
  ): Promise<StaffUser> {
    return this.users.insert(tx, {
      email: normaliseEmail(input.email),
      name: input.name,
      passwordHash: input.passwordHash,
      mustChangePassword: input.provisionedByVenueId !== undefined,
      provisionedByVenueId: input.provisionedByVenueId ?? null,
      createdAt: this.clock.now(),
    });
  }

  hashPassword(password: string): Promise<string> {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw DomainException.validation(`A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
    }
    return this.hasher.hash(password);
  }

  async countAccounts(): Promise<number> {
    return this.tx.run(({ manager }) => this.users.count(manager));
  }
}
