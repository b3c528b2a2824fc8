import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AppConfig,
  Clock,
  DomainException,
  ErrorCode,
  limitAddress,
  type KeyToRead,
  type PrefetchedAnswer,
  type Role,
  TransactionRunner,
  type Tx,
} from '@hostboard/core';
import { AuditLog } from '../audit/audit.log.js';
import { LoginLimiter } from '../rate-limit/login.limiter.js';
import { normaliseEmail } from '../users/normalise-email.js';
import { PasswordHasher } from '../users/password.hasher.js';
import type { StaffUser } from '../users/staff-user.entity.js';
import { StaffUserRepository } from '../users/staff-user.repository.js';
import { hashSecret, newSecretToken, sameDigest } from './secret-token.js';
import { SeenSessions } from './seen-sessions.js';
import { StaffAccessEvents } from './staff-access.events.js';
import { StaffSessionRepository, type SessionRow } from './staff-session.repository.js';

export interface SessionView {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string };
  /** The password was chosen by someone else (a manager): change it now (POST /v1/auth/password). */
  mustChangePassword: boolean;
}

export interface StaffIdentity {
  userId: string;
  sessionId: string;
}

/** Refused as the new password of an account whose current one was chosen by someone else. */
export const OWN_CHOICE = 'Choose a new password: this one was chosen by someone else, so it is not yours alone.';

/** One answer for every failed sign-in, so nobody learns which emails have accounts. */
export const BAD_LOGIN = 'The email or password is not right.';

@Injectable()
export class AuthService {
  /** The sessions this process saw live: a hint for the board's handshake limit (seenLive). */
  private readonly seen = new SeenSessions();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly users: StaffUserRepository,
    private readonly sessions: StaffSessionRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: LoginLimiter,
    private readonly audit: AuditLog,
    private readonly events: StaffAccessEvents,
  ) {}

  async login(emailInput: string, password: string): Promise<SessionView> {
    const email = normaliseEmail(emailInput);
    const ip = limitAddress();
    const { slowdownMs } = await this.limiter.attempt(email, ip);
    if (slowdownMs > 0) await new Promise((resolve) => setTimeout(resolve, slowdownMs));
    const user = await this.tx.run(({ manager }) => this.users.findByEmail(manager, email));
    // Hashing runs outside any transaction: it is slow, and the embedded database has one session.
    const ok = await this.hasher.verify(user?.passwordHash ?? undefined, password);
    if (!user || !ok) {
      await this.tx.run(({ manager }) =>
        this.audit.record(manager, { action: 'login-failed', subjectUserId: user?.id ?? null, details: { email } }),
      );
      throw new DomainException(ErrorCode.UNAUTHENTICATED, BAD_LOGIN);
    }
    await this.limiter.succeeded(email, ip);
    return this.tx.run(async ({ manager }) => {
      const view = await this.openSession(manager, user);
      await this.audit.record(manager, { action: 'login', actor: `staff:${user.id}`, subjectUserId: user.id });
      return view;
    });
  }

  /** A new session for `user`, inside the caller's transaction (a login, a claimed invitation). */
  async openSession(manager: EntityManager, user: StaffUser): Promise<SessionView> {
    const token = newSecretToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.SESSION_TTL_HOURS * 3600_000);
    const digest = hashSecret(token);
    await this.sessions.insert(manager, { userId: user.id, tokenHash: digest, createdAt: now, expiresAt });
    this.seen.note(digest, expiresAt);
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      user: { id: user.id, email: user.email, name: user.name },
      mustChangePassword: user.mustChangePassword,
    };
  }

  /** The staff user behind a bearer token, or UNAUTHENTICATED (unknown, ended and expired alike). */
  async authenticate(token: string): Promise<StaffIdentity & { expiresAt: Date }> {
    const digest = hashSecret(token);
    const session = await this.tx.read((manager) => this.sessions.findByTokenHash(manager, digest));
    return { ...this.identityOf(session, digest), expiresAt: session?.expiresAt ?? new Date(0) };
  }

  /**
   * As `authenticate`, with the user's role at `venueId` (null: not a member) from the same read; with
   * `key` (a keyed command's) also the answer stored under it for this user (null: none), for the
   * Idempotency-Key interceptor (RequestContext.storedAnswer).
   */
  async authenticateAt(
    token: string,
    venueId: string,
    key?: KeyToRead,
  ): Promise<{ identity: StaffIdentity; role: Role | null; stored?: PrefetchedAnswer['row'] }> {
    const digest = hashSecret(token);
    const row = await this.tx.read((manager) => this.sessions.findWithRole(manager, digest, venueId, key));
    return {
      identity: this.identityOf(row, digest),
      role: row?.role ?? null,
      ...(row?.stored !== undefined ? { stored: row.stored } : {}),
    };
  }

  /** Of these sessions, the live ones with the venues their user belongs to now (the board's re-check). */
  liveSessions(sessionIds: string[]): Promise<Map<string, string[]>> {
    return this.tx.read((manager) => this.sessions.liveWithVenues(manager, sessionIds, this.clock.now()));
  }

  private identityOf(session: SessionRow | null, digest: string): StaffIdentity {
    const live =
      session !== null &&
      sameDigest(session.tokenHash, digest) &&
      session.endedAt === null &&
      this.clock.now().getTime() < session.expiresAt.getTime();
    if (!live) throw DomainException.unauthenticated('Your session is not valid; sign in again.');
    this.seen.note(digest, session.expiresAt);
    return { userId: session.userId, sessionId: session.id };
  }

  /**
   * Whether this process has seen the token's session live (opened here, or a request of it admitted)
   * and it has not run out: a hint for refusing made-up tokens unread (SeenSessions), never an admission.
   */
  seenLive(token: string): boolean {
    return this.seen.has(hashSecret(token), this.clock.now());
  }

  async logout(identity: StaffIdentity): Promise<void> {
    await this.tx.run(async (tx) => {
      await this.sessions.end(tx.manager, identity.sessionId, this.clock.now());
      await this.audit.record(tx.manager, { action: 'logout', subjectUserId: identity.userId });
      this.afterEnding(tx, [identity.sessionId]);
    });
  }

  /** Signs out every session of the caller, this one included, on every device. */
  async logoutEverywhere(identity: StaffIdentity): Promise<{ ended: number }> {
    return this.tx.run(async (tx) => {
      const ended = await this.sessions.endAllOf(tx.manager, identity.userId, this.clock.now());
      await this.audit.record(tx.manager, {
        action: 'logout-everywhere',
        subjectUserId: identity.userId,
        details: { ended: ended.length },
      });
      this.afterEnding(tx, ended);
      return { ended: ended.length };
    });
  }

  /**
   * Changes the caller's own password after checking the current one (counted like a login, so a
   * stolen session cannot guess it), and ends every other session of the account.
   */
  async changePassword(
    identity: StaffIdentity,
    currentPassword: string,
    newPassword: string,
  ): Promise<{ endedSessions: number }> {
    const user = await this.tx.read((manager) => this.users.findById(manager, identity.userId));
    if (!user) throw DomainException.unauthenticated();
    if (!(await this.checkPasswordOf(user, currentPassword))) {
      await this.tx.run(({ manager }) =>
        this.audit.record(manager, { action: 'password-change-failed', subjectUserId: user.id }),
      );
      throw DomainException.validation('The current password is not right.', { field: 'currentPassword' });
    }
    await this.assertOwnChoice(user, newPassword, 'newPassword');
    const passwordHash = await this.hashNew(newPassword);
    return this.tx.run(async (tx) => {
      await this.users.setPassword(tx.manager, user.id, passwordHash, false);
      const ended = await this.sessions.endAllOf(tx.manager, user.id, this.clock.now(), identity.sessionId);
      await this.audit.record(tx.manager, {
        action: 'password-changed',
        subjectUserId: user.id,
        details: { endedSessions: ended.length },
      });
      this.afterEnding(tx, ended);
      return { endedSessions: ended.length };
    });
  }

  /** Ends every session of a user inside the caller's transaction (a reset, a claimed invitation). */
  async endAllSessions(tx: Tx, userId: string): Promise<number> {
    const ended = await this.sessions.endAllOf(tx.manager, userId, this.clock.now());
    this.afterEnding(tx, ended);
    return ended.length;
  }

  async hashNew(password: string): Promise<string> {
    if (password.length < MIN_PASSWORD) throw DomainException.validation(`A password needs at least ${MIN_PASSWORD} characters.`);
    return this.hasher.hash(password);
  }

  /**
   * A password someone else chose (a manager handed it over) is theirs too: keeping it as one's own
   * would let them sign in as this account wherever it goes next (another venue, one it opens).
   */
  async assertOwnChoice(user: StaffUser, password: string, field: string): Promise<void> {
    if (user.mustChangePassword && (await this.verifyPassword(user.passwordHash, password))) {
      throw DomainException.validation(OWN_CHOICE, { field });
    }
  }

  /**
   * Whether `password` is the account's, checked the way a sign-in checks it: counted against the
   * account and the caller's address by the login limits (429 past them, slowed when the account is
   * under attack), a success forgiving the count. For every check a caller could repeat at will with
   * a password guess (a password change, an invitation claim): otherwise it is a way around the
   * login limits to the same answer.
   */
  async checkPasswordOf(user: StaffUser, password: string): Promise<boolean> {
    const ip = limitAddress();
    const { slowdownMs } = await this.limiter.attempt(user.email, ip);
    if (slowdownMs > 0) await new Promise((resolve) => setTimeout(resolve, slowdownMs));
    const ok = await this.hasher.verify(user.passwordHash ?? undefined, password);
    if (ok) await this.limiter.succeeded(user.email, ip);
    return ok;
  }

  verifyPassword(stored: string | null, password: string): Promise<boolean> {
    return this.hasher.verify(stored ?? undefined, password);
  }

  private afterEnding(tx: Tx, sessionIds: string[]): void {
    tx.afterCommit(() => this.events.publish({ kind: 'sessions-ended', sessionIds }));
  }
}

const MIN_PASSWORD = 8;
