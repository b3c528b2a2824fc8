import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { jsonRows, readTogether, type ScalarRead } from '@hostboard/core';
import { EmailChannel } from '../channels/email.channel.js';
import { SmsAdapter } from '../channels/sms.adapter.js';
import type { OutboxChannel } from '../outbox-message.entity.js';

/**
 * Whether the venue reaches a party: `failed` when a message to it failed and none was sent after,
 * `none` when it gave no contact on a channel the venue sends on, else `ok`.
 */
export type Reach = 'ok' | 'failed' | 'none';

/** A party on the board, with the contact it has now. */
type Party = { id: string; email: string | null; phone: string | null };

/** Reads the reach of the parties on the board, in one query for the failures. */
@Injectable()
export class ReachReader {
  /**
   * The channels the venue sends on: those with a provider. With none configured (the pilot, where
   * every message is recorded for the manager to read) both channels count, as recorded is all
   * anyone gets; once a provider is set, a party only on a channel without one is not reached.
   */
  private readonly sending: ReadonlySet<OutboxChannel>;

  constructor(email: EmailChannel, sms: SmsAdapter) {
    const configured = [email, sms].filter((c) => c.configured).map((c) => c.channel);
    this.sending = new Set<OutboxChannel>(configured.length > 0 ? configured : ['email', 'sms']);
  }

  /**
   * As a part of a combined read (readTogether): which of `parties` a message failed to with none
   * sent to them after. Only a failure to the contact the party has now counts: once staff corrected
   * the address or number that failed, the party is not called unreached for it (the next message
   * goes to the corrected one); corrected back, it counts again. `reachOf` turns it into each reach.
   */
  failedRead(venueId: string, parties: ReadonlyArray<Party>): ScalarRead<Set<string>> {
    return {
      sql: `SELECT json_agg(DISTINCT f.entry_id)
              FROM unnest($2::uuid[], $3::text[], $4::text[]) AS p(id, email, phone)
              JOIN outbox_messages f ON f.entry_id = p.id
             WHERE f.venue_id = $1 AND f.status = 'failed'
               AND f.to_address = CASE f.channel WHEN 'email' THEN p.email ELSE p.phone END
               AND NOT EXISTS (SELECT 1 FROM outbox_messages s
                                WHERE s.entry_id = f.entry_id AND s.status = 'sent' AND s.created_at > f.created_at)`,
      params: [venueId, parties.map((p) => p.id), parties.map((p) => p.email), parties.map((p) => p.phone)],
      parse: (value) => new Set(jsonRows<string>(value)),
    };
  }

  /** Each party's reach, given the failures `failedRead` found. */
  reachOf(parties: ReadonlyArray<Party>, failed: Set<string>): Map<string, Reach> {
    const reach = new Map<string, Reach>();
    for (const p of parties) {
      const reachable = (p.email !== null && this.sending.has('email')) || (p.phone !== null && this.sending.has('sms'));
      reach.set(p.id, !reachable ? 'none' : failed.has(p.id) ? 'failed' : 'ok');
    }
    return reach;
  }

  async of(tx: EntityManager, venueId: string, parties: ReadonlyArray<Party>): Promise<Map<string, Reach>> {
    if (parties.length === 0) return new Map();
    const { failed } = await readTogether(tx, { failed: this.failedRead(venueId, parties) });
    return this.reachOf(parties, failed);
  }
}
