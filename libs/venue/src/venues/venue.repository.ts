import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  afterFirst,
  entityRead,
  noVenueRow,
  selectEntitiesStatement,
  selectEntity,
  updateEntities,
  updateEntitiesStatement,
  venueLockWhere,
  type Results,
  type ScalarRead,
} from '@hostboard/core';
import { Venue } from './venue.entity.js';

@Injectable()
export class VenueRepository {
  async findById(tx: EntityManager, id: string): Promise<Venue | null> {
    return selectEntity(tx, Venue, 'id = $1', [id]);
  }

  /** `findById` as a part of a combined read (readTogether). */
  findRead(tx: EntityManager, id: string): ScalarRead<Venue | null> {
    return entityRead(tx, Venue, 'id = $1', [id]);
  }

  /**
   * The venue row lock: the first statement of every command of this venue. With `keyLock`
   * (Tx.keyLock, in a command with `keyLockedByCommand`) it takes the Idempotency-Key's lock too.
   */
  async lock(tx: EntityManager, id: string, keyLock?: string): Promise<Venue> {
    const { where, params } = venueLockWhere(id, keyLock);
    return (await selectEntity(tx, Venue, `${where} FOR UPDATE`, params)) ?? noVenueRow(tx, id, keyLock);
  }

  /**
   * `lock`, with reads that follow it in the same write to PostgreSQL (`afterFirst`): a statement of
   * their own after the lock's, run once the lock is granted, each seeing everything committed before
   * (not in the lock's statement, whose reads would share the snapshot taken before its wait). Their
   * parameters must not depend on the venue row; a venue not found (or a key still held) is refused
   * as by `lock`, whatever the reads found.
   */
  async lockThenRead<R extends Record<string, ScalarRead<unknown> | undefined>>(
    tx: EntityManager,
    id: string,
    keyLock: string | undefined,
    reads: R,
  ): Promise<{ venue: Venue; found: Results<R> }> {
    const { where, params } = venueLockWhere(id, keyLock);
    const lock = selectEntitiesStatement(tx, Venue, `${where} FOR UPDATE`, params);
    const { rows, found } = await afterFirst(tx, lock, reads);
    return { venue: lock.hydrate(rows)[0] ?? (await noVenueRow(tx, id, keyLock)), found };
  }

  /** `lockTakingSequence` with reads after it in the same write, as `lockThenRead`. */
  async lockTakingSequenceThenRead<R extends Record<string, ScalarRead<unknown> | undefined>>(
    tx: EntityManager,
    id: string,
    keyLock: string | undefined,
    reads: R,
  ): Promise<{ venue: Venue; found: Results<R> }> {
    const { where, params } = venueLockWhere(id, keyLock);
    const lock = updateEntitiesStatement(tx, Venue, 'queue_sequence_last = queue_sequence_last + 1', where, params);
    const { rows, found } = await afterFirst(tx, lock, reads);
    return { venue: lock.hydrate(rows)[0] ?? (await noVenueRow(tx, id, keyLock)), found };
  }

  /**
   * The lock of a join: the same row lock, taken by the update that reserves the join's queue
   * sequence number (`queueSequenceLast` of the answer), one statement for both. A refused join
   * rolls the number back with everything else; `giveBackSequence` undoes it when a refused join
   * still commits (a business day it closed first).
   */
  async lockTakingSequence(tx: EntityManager, id: string, keyLock?: string): Promise<Venue> {
    const { where, params } = venueLockWhere(id, keyLock);
    const [venue] = await updateEntities(tx, Venue, 'queue_sequence_last = queue_sequence_last + 1', where, params);
    return venue ?? noVenueRow(tx, id, keyLock);
  }

  async giveBackSequence(tx: EntityManager, venue: Venue): Promise<void> {
    await tx.query('UPDATE venues SET queue_sequence_last = queue_sequence_last - 1 WHERE id = $1', [venue.id]);
  }

  /** Whether anyone has registered or joined the queue at this venue yet. */
  async registrationOpened(tx: EntityManager, venueId: string): Promise<boolean> {
    const rows: Array<{ opened: boolean }> = await tx.query(
      `SELECT EXISTS (SELECT 1 FROM reservations WHERE venue_id = $1) OR EXISTS (SELECT 1 FROM queue_entries WHERE venue_id = $1) AS opened`,
      [venueId],
    );
    return rows[0]?.opened === true;
  }

  async findBySlug(tx: EntityManager, slug: string): Promise<Venue | null> {
    return selectEntity(tx, Venue, 'slug = $1', [slug]);
  }

  async insert(tx: EntityManager, venue: Venue): Promise<void> {
    await tx.insert(Venue, venue);
  }

  async update(tx: EntityManager, id: string, changes: Partial<Venue>): Promise<void> {
    if (Object.keys(changes).length > 0) await tx.update(Venue, { id }, changes);
  }

  /** The venues a staff user belongs to, with their role. */
  async listForUser(tx: EntityManager, userId: string): Promise<Array<Venue & { role: string }>> {
    const { entities, raw } = await tx
      .createQueryBuilder(Venue, 'v')
      .innerJoin('venue_memberships', 'm', 'm.venue_id = v.id AND m.user_id = :userId', { userId })
      .addSelect('m.role', 'member_role')
      .orderBy('v.name')
      .getRawAndEntities<{ v_id: string; member_role: string }>();
    const roles = new Map(raw.map((r) => [r.v_id, r.member_role]));
    return entities.map((v) => Object.assign(v, { role: roles.get(v.id) ?? 'host' }));
  }
}
