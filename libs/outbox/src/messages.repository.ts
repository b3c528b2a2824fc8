import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OutboxMessage, type OutboxChannel, type OutboxStatus } from './outbox-message.entity.js';

export interface MessageFilter {
  template?: string;
  channel?: OutboxChannel;
  status?: OutboxStatus;
  to?: string;
  /**
   * With `to`: messages about a party whose name contains this (any case) match too. A manager
   * asks "did Marta get her text?" by her name, and was told "No messages to Marta." over six.
   */
  name?: string;
  /**
   * Only messages no guest got or will get: `failed`, or `recorded` with a reason it will not be
   * sent or on one of these channels (none of them has a provider set up).
   */
  undelivered?: { noProvider: OutboxChannel[] };
  /** Strictly older than this (created_at, id): the previous page's last row. */
  before?: { createdAt: Date; id: string };
}

/** Reads of the outbox for managers: newest first, keyset paging on (created_at, id). */
@Injectable()
export class MessagesRepository {
  /** The venue's country, for reading a national number typed in the recipient filter. */
  async countryOf(tx: EntityManager, venueId: string): Promise<string | null> {
    const rows: Array<{ country: string | null }> = await tx.query('SELECT country FROM venues WHERE id = $1', [venueId]);
    return rows[0]?.country ?? null;
  }

  page(tx: EntityManager, venueId: string, filter: MessageFilter, take: number): Promise<OutboxMessage[]> {
    // Staff invitations carry a one-time link meant for one person: never listed to the venue's managers.
    const q = tx
      .createQueryBuilder(OutboxMessage, 'm')
      .where('m.venue_id = :venueId', { venueId })
      .andWhere('m.template <> :invitation', { invitation: 'staff-invitation' });
    if (filter.template !== undefined) q.andWhere('m.template = :template', { template: filter.template });
    if (filter.channel !== undefined) q.andWhere('m.channel = :channel', { channel: filter.channel });
    if (filter.status !== undefined) q.andWhere('m.status = :status', { status: filter.status });
    if (filter.to !== undefined && filter.name === undefined) q.andWhere('m.to_address = :to', { to: filter.to });
    if (filter.to !== undefined && filter.name !== undefined) {
      // The party's name as it reads now (a corrected name finds its messages), as `partyNames` names it.
      const like = `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q.andWhere(
        `(m.to_address = :to
          OR EXISTS (SELECT 1 FROM queue_entries e WHERE e.venue_id = m.venue_id AND e.id = m.entry_id AND e.name ILIKE :like)
          OR (m.entry_id IS NULL AND EXISTS (SELECT 1 FROM reservations r
                WHERE r.venue_id = m.venue_id AND r.id = m.reservation_id AND r.name ILIKE :like)))`,
        { to: filter.to, like },
      );
    }
    if (filter.undelivered) {
      const { noProvider } = filter.undelivered;
      q.andWhere(
        `(m.status = 'failed' OR (m.status = 'recorded' AND (m.not_sent_reason IS NOT NULL${
          noProvider.length > 0 ? ' OR m.channel IN (:...noProvider)' : ''
        })))`,
        noProvider.length > 0 ? { noProvider } : {},
      );
    }
    if (filter.before)
      q.andWhere('(m.created_at, m.id) < (:beforeAt, :beforeId)', {
        beforeAt: filter.before.createdAt,
        beforeId: filter.before.id,
      });
    return q.orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC').limit(take).getMany();
  }

  /**
   * The names of the parties the messages were about, by queue entry or booking id, as they are now
   * (a corrected name reads corrected): a manager reviewing texts sees who a number belonged to.
   */
  async partyNames(tx: EntityManager, rows: OutboxMessage[]): Promise<Map<string, string>> {
    const entries = [...new Set(rows.flatMap((r) => (r.entryId ? [r.entryId] : [])))];
    const bookings = [...new Set(rows.flatMap((r) => (!r.entryId && r.reservationId ? [r.reservationId] : [])))];
    if (entries.length === 0 && bookings.length === 0) return new Map();
    const found: Array<{ id: string; name: string }> = await tx.query(
      `SELECT id, name FROM queue_entries WHERE id = ANY($1::uuid[])
        UNION ALL SELECT id, name FROM reservations WHERE id = ANY($2::uuid[])`,
      [entries, bookings],
    );
    return new Map(found.map((f) => [f.id, f.name]));
  }
}
