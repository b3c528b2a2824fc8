import type { EntityManager } from 'typeorm';

/** An open transaction: its manager, and work to do once it has committed (never on rollback). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
}
