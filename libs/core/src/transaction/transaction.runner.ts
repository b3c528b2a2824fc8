import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../clock/clock.js';
import { DomainException } from '../errors/domain.exception.js';
import { httpStatusOf } from '../errors/error-code.js';
import { isReported } from '../errors/reported.js';
import { CommitThenRefuse } from './commit-then-refuse.js';
import { COMMIT_THEN_RETRY_LIMIT, CommitThenRetry } from './commit-then-retry.js';
import { ErrorCode } from '../errors/error-code.js';
import { IdempotencyStore, keyLockName } from '../idempotency/idempotency.store.js';
import { requestContext, type IdempotencyClaim } from '../request-context/request-context.js';
import { IdempotentReplay } from './idempotent-replay.js';
import { withTimeout } from '../redis/redis-clients.js';
import type { Tx } from './tx.js';
import type { PendingInsert } from './entity-rows.js';
import { lockVenueRow } from './venue-lock.js';
import { preparedAtCommit } from './prepared-query.js';
import { beginLazily, commitLazily, rollbackLazily } from './lazy-begin.js';
import { VenueTurns } from './venue-turns.js';

/**
 * `L`: what the command's `lock` read (the venue row it locked), handed to the work and to `translate`.
 */
export interface CommandOptions<T, L = void> {
  /**
   * Runs first inside the transaction, e.g. `SELECT … FOR UPDATE` on the venue row; given the
   * Idempotency-Key's lock name when `keyLockedByCommand` (the lock's statement takes it too).
   * What it answers (the locked row) is given to the work and to `translate`.
   */
  lock?: (tx: EntityManager, keyLock?: string) => Promise<L>;
  /**
   * The command's first statement (`lock`, or else the first of `fn`) takes the Idempotency-Key's
   * lock with its own (`keyLockCondition` with `Tx.keyLock`), saving the key's own round trip.
   */
  keyLockedByCommand?: boolean;
  /** What a replay of this command answers, when it differs from the first answer (a token shown once). */
  storedAs?: (result: T) => unknown;
  /**
   * Turns a database refusal (a unique or exclusion violation) into the domain's answer. `locked` is
   * what `lock` read in the round that failed (its words may depend on the venue), undefined when that
   * round failed before its lock answered.
   */
  translate?: (err: unknown, locked: L | undefined) => DomainException | undefined;
  /** The HTTP status of this result when it is not the route's fixed one (a promotion with nobody to promote). */
  status?: (result: T) => number;
  /** The venue the command decides for: its transaction waits for one of the venue's turns (VenueTurns). */
  venueId?: string;
  /**
   * The work reads the caller's own membership under the venue's lock itself (the staff list's
   * commands, which may also change it: an owner leaving, or making themselves a manager): the check
   * after the work (`stillAdmitted`) would read the caller's new role, not the one they acted with.
   * That check still reads the caller's session (a sign-out everywhere while the command waited).
   */
  readsActorRoleItself?: boolean;
}

/**
 * Opens transactions. `command` is the shape of every mutating command: one transaction that claims
 * the request's Idempotency-Key, takes its lock, does the work and records the answer, all or nothing.
 */
@Injectable()
export class TransactionRunner {
  private readonly logger = new Logger(TransactionRunner.name);
  private readonly turns = new VenueTurns(undefined, undefined, (venueId, running) =>
    this.logger.warn(
      `venue ${venueId}: a command waited 5 s behind ${running} of its commands that still wait for the venue's row lock: ` +
        'a session may be holding it (a long or stuck transaction; see pg_stat_activity); answered 503 retry shortly',
    ),
  );

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  /**
   * A read outside any transaction (no BEGIN/COMMIT round trips): for single lookups on the hot
   * path, such as the session and the role behind every request. Never for a decision.
   */
  async read<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return fn(this.dataSource.manager);
  }

  /** A plain transaction: reads, or system work that guards itself (the sweep). */
  async run<T>(fn: (tx: Tx) => Promise<T>, venueId?: string): Promise<T> {
    const hooks: Array<() => void | Promise<void>> = [];
    // The venue's turn covers the transaction only, not the after-commit steps (Redis may be slow).
    const result = await this.turns.take(venueId, () =>
      this.transaction((manager) => fn({ manager, afterCommit: (hook) => hooks.push(hook) })),
    );
    await this.runHooks(hooks);
    return result;
  }

  /**
   * `dataSource.transaction`, but on node-postgres its START TRANSACTION travels with its first
   * statement (lazy-begin.ts): one round trip less. The embedded database keeps TypeORM's own.
   */
  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.onNodePostgres()) return this.dataSource.transaction(work);
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      beginLazily(runner);
      const result = await work(runner.manager);
      await commitLazily(runner);
      return result;
    } catch (err) {
      // The original error is the answer even when the rollback fails too (as TypeORM's transaction).
      await rollbackLazily(runner).catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  /** node-postgres's Pool carries its Client class; the embedded database's pg-shaped pool does not. */
  private onNodePostgres(): boolean {
    const pool = (this.dataSource.driver as { master?: { Client?: unknown } }).master;
    return typeof pool?.Client === 'function';
  }

  async command<T, L = void>(options: CommandOptions<T, L>, fn: (tx: Tx, locked: L) => Promise<T>): Promise<T> {
    const claim = this.takeClaim();
    // What this round's lock read, for `translate` (the error alone does not say which venue it was).
    let locked: L | undefined;
    try {
      const outcome = await this.committedThenRetried(() =>
        this.run(async (tx): Promise<CommandOutcome<T>> => {
          locked = undefined;
          const keyLock = claim && options.keyLockedByCommand ? keyLockName(claim) : undefined;
          if (claim && !keyLock) await this.idempotency.enter(tx.manager, claim);
          // Without a lock, L is void: the work is given undefined, which is what void holds.
          const read = (options.lock ? await options.lock(tx.manager, keyLock) : undefined) as L;
          locked = read;
          // What the key records for this result: its status, and the body a replay gets.
          const answer = (key: IdempotencyClaim, result: T): [IdempotencyClaim, number, unknown] => [
            key,
            options.status?.(result) ?? key.successStatus,
            options.storedAs ? options.storedAs(result) : result,
          ];
          let recorded = false;
          const answerRow = (result: unknown): PendingInsert[] => {
            if (!claim) return [];
            recorded = true;
            return [this.idempotency.recordRow(...answer(claim, result as T))];
          };
          let result: T;
          try {
            // A lock of its own took the key's lock already: the work's first statement need not.
            result = await fn({ ...tx, answerRow, ...(keyLock && !options.lock ? { keyLock } : {}) }, read);
          } catch (err) {
            // Commits what ran so far (a sweep) with nothing recorded for the key; the command runs again.
            if (err instanceof CommitThenRetry) return { retry: err.reason };
            if (!(err instanceof CommitThenRefuse)) throw err;
            if (claim) await this.idempotency.record(tx.manager, claim, httpStatusOf(err.refusal.code), err.refusal.toBody());
            return { refusal: err.refusal };
          }
          if (claim && !recorded) await this.idempotency.record(tx.manager, ...answer(claim, result));
          // Last, so that it goes with the COMMIT (no round trip of its own).
          if (options.venueId !== undefined)
            await stillAdmitted(tx.manager, options.venueId, this.clock.now(), options.readsActorRoleItself === true);
          return { result };
        }, options.venueId),
      );
      if ('refusal' in outcome) {
        // Already recorded for the key in the committed transaction: not stored again below.
        throw new RecordedRefusal(outcome.refusal);
      }
      return outcome.result;
    } catch (caught) {
      if (caught instanceof RecordedRefusal) throw caught.refusal;
      const thrown = notAdmitted(caught) ?? caught;
      // The first request with this key may have committed after the interceptor looked (our record
      // then broke the key's primary key, or our command was refused by what the first one did): its
      // stored answer is ours. IdempotencyStore.enter explains why this is not read up front.
      if (claim && !(thrown instanceof IdempotentReplay) && !isIdempotencyRefusal(thrown)) {
        await this.idempotency.replayAfterFailure(claim);
      }
      const err = options.translate?.(thrown, locked) ?? thrown;
      // A refusal is an answer too: the same retry gets the same refusal. Our own idempotency
      // refusals and replays are not stored (they describe the key, not the command), nor a refusal
      // that says "later" (a rate limit, a brief outage): the retry after the wait would replay it.
      if (claim && err instanceof DomainException && !isIdempotencyCode(err.code) && !isTransient(err.code)) {
        await this.idempotency.recordRefusal(claim, err);
      }
      throw err;
    }
  }

  /** Runs one round of a command, and again while a round committed only its sweep (CommitThenRetry). */
  private async committedThenRetried<T>(
    round: () => Promise<CommandOutcome<T>>,
  ): Promise<{ result: T } | { refusal: DomainException }> {
    for (let rounds = 1; ; rounds++) {
      const outcome = await round();
      if (!('retry' in outcome)) return outcome;
      if (rounds >= COMMIT_THEN_RETRY_LIMIT) {
        this.logger.warn(
          `a command committed ${rounds} rounds of "${outcome.retry}" without deciding: answered 503 retry shortly`,
        );
        throw new DomainException(ErrorCode.UNAVAILABLE, 'The service is briefly unavailable; retry shortly.');
      }
    }
  }

  /**
   * A command's refusal that a lock-free read already settled (what it read can no longer change),
   * answered without a venue turn or lock, as `command` would answer it: with the Idempotency-Key's
   * stored answer when the key's first request committed after the interceptor looked, else this
   * refusal, recorded for the key's retries.
   */
  async refuse(refusal: DomainException): Promise<never> {
    const claim = this.takeClaim();
    if (claim) {
      await this.idempotency.replayAfterFailure(claim);
      await this.idempotency.recordRefusal(claim, refusal);
    }
    throw refusal;
  }

  /** A command of one venue: its row lock is taken first, before any read that informs the decision. */
  venueCommand<T>(venueId: string, fn: (tx: Tx) => Promise<T>, options: Omit<CommandOptions<T>, 'lock'> = {}): Promise<T> {
    return this.command<T>(
      { ...options, venueId, lock: (m, keyLock) => lockVenueRow(m, venueId, keyLock), keyLockedByCommand: true },
      fn,
    );
  }

  /** Only the first command of a request answers for its Idempotency-Key. */
  private takeClaim(): IdempotencyClaim | undefined {
    const claim = requestContext.current()?.idempotency;
    if (!claim || claim.claimed) return undefined;
    claim.claimed = true;
    return claim;
  }

  /**
   * Side effects of a committed transaction (socket pushes, job scheduling), in order, all within
   * AFTER_COMMIT_BUDGET_MS: a slow or absent Redis must not hold up the answer. What fails or runs
   * late is covered elsewhere (the safety-net sweep expires offers, boards resync by version).
   */
  private async runHooks(hooks: Array<() => void | Promise<void>>): Promise<void> {
    const deadline = performance.now() + AFTER_COMMIT_BUDGET_MS;
    for (const hook of hooks) {
      try {
        await withTimeout(Promise.resolve().then(hook), Math.max(1, deadline - performance.now()), 'an after-commit step');
      } catch (err) {
        // The transaction has committed; a failed side effect (a socket push) must not turn it into an error.
        // One already logged where it failed (a job Redis refused, counted per outage) adds no line here.
        if (!isReported(err))
          this.logger.warn(`after-commit step failed (the sweep and the boards' resync cover it): ${(err as Error).message}`);
      }
    }
  }
}

/** The after-commit steps of one transaction together may take this long before the answer goes. */
export const AFTER_COMMIT_BUDGET_MS = 800;

/** One round of a command: its answer, a refusal committed with what it did, or "again" after a sweep. */
type CommandOutcome<T> = { result: T } | { refusal: DomainException } | { retry: string };

class RecordedRefusal extends Error {
  constructor(readonly refusal: DomainException) {
    super(refusal.message);
  }
}

function isIdempotencyRefusal(err: unknown): boolean {
  return err instanceof DomainException && isIdempotencyCode(err.code);
}

function isTransient(code: ErrorCode): boolean {
  return code === ErrorCode.RATE_LIMITED || code === ErrorCode.UNAVAILABLE;
}

function isIdempotencyCode(code: ErrorCode): boolean {
  return code === ErrorCode.IDEMPOTENCY_IN_PROGRESS || code === ErrorCode.IDEMPOTENCY_KEY_REUSED;
}

export { IdempotentReplay };

/**
 * A staff caller's command of the venue the access guard admitted them to reads, once its work holds
 * the venue's lock, whether the session is still live and the membership still allows the route: the
 * guard read them before the command waited for that lock, and a removal, a demotion or a sign-out
 * everywhere (each under the same lock, or committed before it) may have committed meanwhile, or the
 * session may have run out. Then the command is refused as the guard would refuse it now, and its work
 * rolls back. Nothing for other callers. The session is over as the guard decides it: ended, its row
 * gone, or its `expires_at` not after `now`, the app's clock (the guard's), never PostgreSQL's now(): an
 * app on a clock of its own (a test's, one following the database's with an offset) would disagree.
 *
 * It goes with the COMMIT (`preparedAtCommit`), no round trip of its own: so it fails the statement
 * rather than answering rows, by casting a text naming the reason to an integer (a text built from the
 * row, so the planner cannot fold it early), and `notAdmitted` reads the reason back from the error.
 * It reads from a one-row VALUES, so that a session row no longer there is a row too (a NULL `s.id`).
 * `sessionOnly`: the command read the caller's role itself (`readsActorRoleItself`); the session still counts.
 */
async function stillAdmitted(manager: EntityManager, venueId: string, now: Date, sessionOnly: boolean): Promise<void> {
  const ctx = requestContext.current();
  const access = ctx?.venueAccess;
  if (!access || access.venueId !== venueId || ctx?.principal.kind !== 'staff') return;
  await preparedAtCommit(
    manager,
    `SELECT CASE
              WHEN s.id IS NULL OR s.ended_at IS NOT NULL OR s.expires_at <= $4::timestamptz
                THEN ('${NOT_ADMITTED}session:' || coalesce(s.id::text, 'gone'))::int
              WHEN $5::boolean THEN 0
              WHEN m.role IS NULL THEN ('${NOT_ADMITTED}member:' || s.id::text)::int
              WHEN array_position(ARRAY['host', 'manager', 'owner'], m.role) < array_position(ARRAY['host', 'manager', 'owner'], $3::text)
                THEN ('${NOT_ADMITTED}role:' || s.id::text)::int
              ELSE 0
            END AS admitted
       FROM (VALUES (1)) AS one (n)
       LEFT JOIN staff_sessions s ON s.id = $2
       LEFT JOIN venue_memberships m ON m.user_id = s.user_id AND m.venue_id = $1`,
    [venueId, ctx.principal.sessionId, access.role, now, sessionOnly],
  );
}

const NOT_ADMITTED = 'hostboard-not-admitted-';

/** `stillAdmitted`'s failure as the guard's refusal, or undefined for any other error. */
function notAdmitted(err: unknown): DomainException | undefined {
  const message = err instanceof Error ? err.message : '';
  const reason = new RegExp(`${NOT_ADMITTED}(session|member|role):`).exec(message)?.[1];
  const role = requestContext.current()?.venueAccess?.role ?? 'host';
  if (reason === 'session') return DomainException.unauthenticated();
  if (reason === 'member') return DomainException.notFound('The venue was not found.');
  if (reason === 'role') return DomainException.forbidden(`This needs the ${role} role at this venue.`);
  return undefined;
}
