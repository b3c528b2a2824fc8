import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, DomainException, ErrorCode, requestContext, TransactionRunner, type Role } from '@hostboard/core';
import { AuditLog } from '../audit/audit.log.js';
import { AttemptLimiter } from '../rate-limit/attempt.limiter.js';
import { normaliseEmail } from '../users/normalise-email.js';
import { PasswordHasher } from '../users/password.hasher.js';
import { StaffUserRepository } from '../users/staff-user.repository.js';
import { hashSecret, newSecretToken, sameDigest } from './secret-token.js';
import { StaffSessionRepository, type SessionRow } from './staff-session.repository.js';

export interface SessionView {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string };
}

export interface StaffIdentity {
  userId: string;
  sessionId: string;
}

/** One answer for every failed sign-in, so nobody learns which emails have accounts. */
const BAD_LOGIN = 'The email or password is not right.';

@Injectable()
export class AuthService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly users: StaffUserRepository,
    private readonly sessions: StaffSessionRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: AttemptLimiter,
    private readonly audit: AuditLog,
  ) {}

  async login(emailInput: string, password: string): Promise<SessionView> {
    const email = normaliseEmail(emailInput);
    const ip = requestContext.current()?.ip ?? 'unknown';
    const ipKey = `ip:${ip}`;
    const accountKey = `account:${email}`;
    await this.limiter.attempt([ipKey, accountKey]);
    const user = await this.tx.run(({ manager }) => this.users.findByEmail(manager, email));
    // Hashing runs outside any transaction: it is slow, and the embedded database has one session.
    const ok = await this.hasher.verify(user?.passwordHash, password);
    if (!user || !ok) {
      await this.tx.run(({ manager }) =>
        this.audit.record(manager, { action: 'login-failed', subjectUserId: user?.id ?? null, details: { email } }),
      );
      throw new DomainException(ErrorCode.UNAUTHENTICATED, BAD_LOGIN);
    }
    await this.limiter.succeeded([accountKey], [ipKey]);
    const token = newSecretToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.SESSION_TTL_HOURS * 3600_000);
    await this.tx.run(async ({ manager }) => {
      await this.sessions.insert(manager, { userId: user.id, tokenHash: hashSecret(token), createdAt: now, expiresAt });
      await this.audit.record(manager, { action: 'login', actor: `staff:${user.id}`, subjectUserId: user.id });
    });
    return { token, expiresAt: expiresAt.toISOString(), user: { id: user.id, email: user.email, name: user.name } };
  }

  /** The staff user behind a bearer token, or UNAUTHENTICATED (unknown, ended and expired alike). */
  async authenticate(token: string): Promise<StaffIdentity> {
    const digest = hashSecret(token);
    const session = await this.tx.read((manager) => this.sessions.findByTokenHash(manager, digest));
    return this.identityOf(session, digest);
  }

  /** As `authenticate`, with the user's role at `venueId` (null: not a member) from the same read. */
  async authenticateAt(token: string, venueId: string): Promise<{ identity: StaffIdentity; role: Role | null }> {
    const digest = hashSecret(token);
    const row = await this.tx.read((manager) => this.sessions.findWithRole(manager, digest, venueId));
    return { identity: this.identityOf(row, digest), role: row?.role ?? null };
  }

  private identityOf(session: SessionRow | null, digest: string): StaffIdentity {
    const live =
      session !== null &&
      sameDigest(session.tokenHash, digest) &&
      session.endedAt === null &&
      this.clock.now().getTime() < session.expiresAt.getTime();
    if (!live) throw DomainException.unauthenticated('Your session is not valid; sign in again.');
    return { userId: session.userId, sessionId: session.id };
  }

  async logout(identity: StaffIdentity): Promise<void> {
    await this.tx.run(async ({ manager }) => {
      await this.sessions.end(manager, identity.sessionId, this.clock.now());
      await this.audit.record(manager, { action: 'logout', subjectUserId: identity.userId });
    });
  }
}
