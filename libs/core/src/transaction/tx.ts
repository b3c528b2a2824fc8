import type { EntityManager } from 'typeorm';
import type { PendingInsert } from './entity-rows.js';

/** An open transaction: its manager, and work to do once it has committed (never on rollback). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Inside a command with an Idempotency-Key: the row that records `result` as the key's answer, for
   * the command to write in its own last insert (one round trip less); the command then does not
   * write it again. Call it only with the very result the command returns, after its last check.
   * Empty when there is no key to record.
   */
  answerRow?(result: unknown): PendingInsert[];
  /**
   * In a command that takes the Idempotency-Key's lock in its first statement (`keyLockedByCommand`):
   * the key's lock name, for that statement's `keyLockCondition`. Undefined without a key.
   */
  keyLock?: string;
}
