import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DomainException,
  ErrorCode,
  limitAddress,
  sqlState,
  SQLSTATE,
  TransactionRunner,
  type KeyToRead,
  type PrefetchedAnswer,
} from '@hostboard/core';
import { AttemptLimiter, hashSecret, newSecretToken, SECRET_TOKEN_SHAPE } from '@hostboard/auth';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import { queueCodeHashes } from '../tokens/queue-code.js';
import { QueueTokenRepository } from '../tokens/queue-token.repository.js';
import { QueueSessionRepository } from './queue-session.repository.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';

/** One answer for a wrong, used, expired or replaced token or session: nothing says which. */
export const TOKEN_INVALID_MESSAGE = 'This token is not valid. Ask the venue for a fresh one.';
export const QUEUE_SESSION_MINUTES = 60;
/**
 * A keyed exchange (the page's own `key`) may be asked again this long after it opened its session,
 * on the venue's clock: the phone whose answer was lost on a weak signal retries within it.
 */
export const EXCHANGE_RETRY_MINUTES = 10;
/** Queue tokens and session secrets are 32 random bytes, base64url: 43 characters. */

export interface OpenedSession {
  /** Shown once; a replay of the exchange answers null. */
  sessionToken: string | null;
  entryId: string;
  expiresAt: string;
}

export interface QueueSessionIdentity {
  sessionId: string;
  entryId: string;
  venueId: string;
  /** Ended by its party's leaving: only a retry's stored answer is given to it (`authenticate`). */
  ended?: boolean;
}

export function tokenInvalid(): DomainException {
  return new DomainException(ErrorCode.TOKEN_INVALID, TOKEN_INVALID_MESSAGE);
}

/** Exchanging a queue token for a session, and recognising the session afterwards. */
@Injectable()
export class QueueSessionService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly tokens: QueueTokenRepository,
    private readonly sessions: QueueSessionRepository,
    private readonly limiter: AttemptLimiter,
    private readonly entries: QueueEntryRepository,
  ) {}

  /**
   * The attempt is counted (per address) before the token is looked at; past the address's limit
   * only a token that opens a session is answered other than RATE_LIMITED (`secretCheck`). The token
   * is used under the venue lock by a guarded UPDATE: of two racing exchanges, one opens a session.
   *
   * With `key` (drawn by the party's page), the session's secret is that key: the page knows its
   * session before any answer arrives. A retry with the token already used, the same key, within
   * EXCHANGE_RETRY_MINUTES of the session's opening (and the session still live) answers that same
   * session: the phone whose first answer was lost on the way back (a weak signal) is not locked out
   * of its own place. It hands no secret to anyone who does not hold it already; whoever copied the
   * link, with any other key (or none), is refused TOKEN_INVALID as before.
   */
  exchange(token: string, key?: string): Promise<OpenedSession> {
    const addressKey = `queue-token:ip:${limitAddress()}`;
    return this.limiter.secretCheck([addressKey], () => this.open(token, key));
  }

  private async open(token: string, key?: string): Promise<OpenedSession> {
    const hashes = queueCodeHashes(token);
    const found = hashes.length > 0 ? await this.tx.run(({ manager }) => this.tokens.findByHashes(manager, hashes)) : null;
    if (!found) throw tokenInvalid();
    const secret = key ?? newSecretToken();
    const opened = await this.tx.command<OpenedSession>(
      {
        venueId: found.venueId,
        storedAs: (r) => ({ ...r, sessionToken: null }),
        // A key that is already another session's (a page that drew it twice): nothing is opened.
        translate: (err) => (sqlState(err) === SQLSTATE.uniqueViolation ? tokenInvalid() : undefined),
      },
      async ({ manager }) => {
        const venue = await this.venues.lock(manager, found.venueId);
        const now = this.clock.now(venue);
        const entryId = await this.tokens.use(manager, found.id, now);
        if (!entryId) return this.reopened(manager, found, key, now);
        // A cancelled entry's token opens nothing (cancelling retires it too; this also covers tokens
        // of entries cancelled before that rule). Refusing rolls the use back: nothing changes.
        const entry = await this.entries.find(manager, venue.id, entryId);
        if (!entry || entry.status === 'cancelled') throw tokenInvalid();
        const expiresAt = new Date(now.getTime() + QUEUE_SESSION_MINUTES * 60_000);
        await this.sessions.insert(manager, {
          id: randomUUID(),
          venueId: venue.id,
          entryId,
          tokenHash: hashSecret(secret),
          createdAt: now,
          expiresAt,
          endedAt: null,
        });
        return { sessionToken: secret, entryId, expiresAt: expiresAt.toISOString() };
      },
    );
    return opened;
  }

  /**
   * The session a keyed exchange of this token opened, asked for again with the same key within
   * EXCHANGE_RETRY_MINUTES (and while it is live): the same session; anything else is TOKEN_INVALID.
   */
  private async reopened(
    manager: EntityManager,
    token: { venueId: string; entryId: string },
    key: string | undefined,
    now: Date,
  ): Promise<OpenedSession> {
    if (key === undefined) throw tokenInvalid();
    const session = await this.sessions.findByHash(manager, hashSecret(key));
    if (
      !session ||
      session.venueId !== token.venueId ||
      session.entryId !== token.entryId ||
      session.endedAt !== null ||
      !(now.getTime() < session.expiresAt.getTime()) ||
      !(now.getTime() < session.createdAt.getTime() + EXCHANGE_RETRY_MINUTES * 60_000)
    )
      throw tokenInvalid();
    return { sessionToken: key, entryId: session.entryId, expiresAt: session.expiresAt.toISOString() };
  }

  /**
   * The session behind a secret, live at the venue's now (strictly before its expiry), or
   * TOKEN_INVALID. With `ended: 'mark'`, a session ended by its party's leaving (and not expired) is
   * answered too, marked `ended`: its party's retry of that leave may still get the stored answer.
   * With `key`, also the answer stored under a keyed command's Idempotency-Key (`stored`), from the
   * same one read, outside any transaction: it decides nothing but who is asking.
   */
  async authenticate(
    secret: string,
    options: { ended?: 'refuse' | 'mark'; key?: KeyToRead } = {},
  ): Promise<QueueSessionIdentity & { stored?: PrefetchedAnswer['row'] }> {
    if (!SECRET_TOKEN_SHAPE.test(secret)) throw tokenInvalid();
    const session = await this.tx.read((manager) => this.sessions.findForRequest(manager, hashSecret(secret), options.key));
    if (!session || (session.endedAt !== null && options.ended !== 'mark')) throw tokenInvalid();
    if (!(this.clock.now(session.venue).getTime() < session.expiresAt.getTime())) throw tokenInvalid();
    return {
      sessionId: session.id,
      entryId: session.entryId,
      venueId: session.venueId,
      ...(session.endedAt !== null && { ended: true }),
      ...(session.stored !== undefined && { stored: session.stored }),
    };
  }
}
