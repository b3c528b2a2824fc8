import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../clock/clock.js';
import { DomainException } from '../errors/domain.exception.js';
import { ErrorCode, httpStatusOf } from '../errors/error-code.js';
import type { IdempotencyClaim, PrefetchedAnswer } from '../request-context/request-context.js';
import { insertEntities, selectEntity, type PendingInsert } from '../transaction/entity-rows.js';
import { IdempotentReplay } from '../transaction/idempotent-replay.js';
import { preparedQuery } from '../transaction/prepared-query.js';
import { IdempotencyKeyRow } from './idempotency-key.entity.js';

/** Stored answers are kept at least this long (API.md: at least 24 h). */
export const IDEMPOTENCY_RETENTION_MS = 48 * 3600 * 1000;

/** A keyed request's key and its scope around the caller's id (`scopeAroundCaller`), for a guard's read. */
export interface KeyToRead {
  key: string;
  scope: { before: string; after: string };
}

/**
 * The stored answer in a row that LEFT JOINed `idempotency_keys k` and selected `k.request_hash,
 * k.response_status, k.response_body` (a guard's session read); null when the key has none.
 */
export function storedAnswerOf(r: {
  request_hash?: string | null;
  response_status?: number | null;
  response_body?: unknown;
}): PrefetchedAnswer['row'] {
  return r.request_hash == null
    ? null
    : { requestHash: r.request_hash, responseStatus: Number(r.response_status), responseBody: r.response_body };
}

/** SQL of the Idempotency-Key table. */
@Injectable()
export class IdempotencyStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Outside any transaction: answer a retry from what is stored, before doing any work. `prefetched`
   * (read with the caller's session) spares the read when it is for this claim's scope and key.
   */
  async replayIfStored(claim: IdempotencyClaim, prefetched?: PrefetchedAnswer): Promise<void> {
    const row =
      prefetched && prefetched.scope === claim.scope && prefetched.key === claim.key ? prefetched.row : await this.stored(claim);
    if (row) this.answerFromRow(row, claim);
  }

  /**
   * Inside the command's transaction, before its lock. A transaction-scoped advisory lock on the key
   * tells "the first request is still running" (refused at once, never waited on) from "it finished".
   *
   * The stored answer is not read again here (one round trip less on every command): the interceptor
   * read it just before. Should the first request commit in between, this one's own record hits the
   * key's primary key and rolls back, and `TransactionRunner.command` then answers from the stored
   * row (`replayAfterFailure`). The database, not the timing, keeps the command from running twice.
   */
  async enter(tx: EntityManager, claim: IdempotencyClaim): Promise<void> {
    const rows = await preparedQuery<{ locked: boolean }>(tx, `SELECT ${keyLockCondition('$1')} AS locked`, [keyLockName(claim)]);
    if (!rows[0]?.locked) throw keyInProgress();
  }

  /**
   * After a claimed command failed: if the key's answer was stored meanwhile (by the first request,
   * committed after the interceptor's read), that answer is this request's answer. Throws the replay
   * (or the reuse refusal); returns when nothing is stored or the read itself fails.
   */
  async replayAfterFailure(claim: IdempotencyClaim): Promise<void> {
    let row: IdempotencyKeyRow | null;
    try {
      row = await this.stored(claim);
    } catch {
      return; // the original failure is the better answer
    }
    if (row) this.answerFromRow(row, claim);
  }

  /** The row that records the answer, to travel in the command's last insert (`Tx.answerRow`). */
  recordRow(claim: IdempotencyClaim, status: number, body: unknown): PendingInsert<IdempotencyKeyRow> {
    return {
      target: IdempotencyKeyRow,
      rows: [
        {
          scope: claim.scope,
          key: claim.key,
          requestHash: claim.requestHash,
          responseStatus: status,
          responseBody: toJson(body),
          createdAt: this.clock.now(),
        },
      ],
    };
  }

  async record(tx: EntityManager, claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    const { rows } = this.recordRow(claim, status, body);
    await insertEntities(tx, IdempotencyKeyRow, rows);
  }

  /** After a refused command rolled back: store the refusal in its own small transaction. */
  async recordRefusal(claim: IdempotencyClaim, err: DomainException): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(IdempotencyKeyRow)
      .values({
        scope: claim.scope,
        key: claim.key,
        requestHash: claim.requestHash,
        responseStatus: httpStatusOf(err.code),
        responseBody: toJson(err.toBody()) as object,
        createdAt: this.clock.now(),
      })
      .orIgnore()
      .execute();
  }

  /** Deletes answers older than the retention window; returns how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyRow)
      .where('created_at < :cutoff', { cutoff })
      .execute();
    return result.affected ?? 0;
  }

  /** The answer stored for the key, read outside any transaction. */
  private stored(claim: IdempotencyClaim): Promise<IdempotencyKeyRow | null> {
    return selectEntity(this.dataSource.manager, IdempotencyKeyRow, 'scope = $1 AND key = $2', [claim.scope, claim.key]);
  }

  private answerFromRow(row: NonNullable<PrefetchedAnswer['row']>, claim: IdempotencyClaim): never {
    if (row.requestHash !== claim.requestHash) {
      throw new DomainException(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        'This Idempotency-Key was already used for a different request.',
      );
    }
    throw new IdempotentReplay(row.responseStatus, row.responseBody);
  }
}

/**
 * The stored body is exactly the JSON the client received (dates as strings, no undefined). A command
 * that answers nothing (a 204 DELETE) stores `{}`: the column holds no SQL NULL, and a 204 replays bodiless.
 */
function toJson(body: unknown): unknown {
  return body === undefined ? {} : JSON.parse(JSON.stringify(body));
}

/**
 * The key's transaction-scoped advisory lock as a condition (`enter`), for a command's first statement
 * to take it with its own lock (one round trip less, see Tx.keyLock): `param` names the parameter that
 * holds `keyLockName(claim)`. An uncorrelated subquery is a one-time filter, evaluated before the
 * statement scans or locks any row: a key still running is refused at once, never after waiting on
 * the venue's lock.
 */
export function keyLockCondition(param: string): string {
  return `(SELECT pg_try_advisory_xact_lock(hashtextextended(${param}, 7)))`;
}

export function keyLockName(claim: Pick<IdempotencyClaim, 'scope' | 'key'>): string {
  return `${claim.scope}\n${claim.key}`;
}

export function keyInProgress(): DomainException {
  return new DomainException(
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    'A request with this Idempotency-Key is still running; retry it shortly.',
  );
}
