import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { returningRows } from '@hostboard/core';
import type { Announcement } from './guest/announcements.js';
import type { OutboxChannel } from './outbox-message.entity.js';

/** A message the relay claimed (`sending`), to hand to its provider. */
export interface Claimed {
  id: string;
  venue_id: string;
  entry_id: string | null;
  channel: OutboxChannel;
  to_address: string;
  subject: string;
  body: string;
  created_at: Date;
  /** Refused hand-overs so far. */
  attempts: number;
}

/** Why a recorded message is not handed to a provider; managers read it beside the message. */
export const NOT_SENT = {
  sandbox: 'not sent: a sandbox venue’s messages are only recorded',
  offerEnded: 'not sent: the table offer had ended before a provider could take the message',
  offerNeverSent: 'not sent: the table-ready message of that offer was not sent',
  offerSentElsewhere: 'not sent: the table-ready message of that offer went to the party’s earlier contact',
  tooOld: (minutes: number): string => `not sent: more than ${minutes} minutes old when a provider could take it`,
  contactRemoved: 'not sent: staff removed this contact from the party before a provider could take it',
  alreadyHad: 'not sent: the party’s corrected contact already had this message',
  invitationEnded: 'not sent: the invitation was cancelled or replaced before a provider could take it',
};

/**
 * SQL: whether another message of row `m`'s party and booking (or of the party without one: its
 * queueing message), channel and kind went, or is to go, to `to` (not failed, not held back): what a
 * corrected contact already had, so a copy moved to it would arrive twice.
 */
export function alreadyHad(m: string, to: string): string {
  return `EXISTS (SELECT 1 FROM outbox_messages h
                   WHERE h.entry_id = ${m}.entry_id AND h.reservation_id IS NOT DISTINCT FROM ${m}.reservation_id AND h.id <> ${m}.id
                     AND h.channel = ${m}.channel AND h.template = ${m}.template AND h.to_address = ${to}
                     AND h.status <> 'failed' AND h.not_sent_reason IS NULL)`;
}

/** A message held back after the provider had refused it: it failed (see `holdBack`). */
export interface GaveUp {
  id: string;
  venue_id: string;
  entry_id: string | null;
  channel: OutboxChannel;
}

/**
 * Staff invitations carry a one-time link to a real person, whatever the venue's clock, and have their
 * own lifetime (libs/auth's STAFF_INVITATION_TEMPLATE; auth writes to the outbox, so no import back).
 */
const INVITATION = 'staff-invitation';
/** libs/offer's TABLE_READY_TEMPLATE (offer depends on outbox, not the other way). */
const TABLE_READY = 'table-ready';
/** The announcements that follow a table-ready message of the same offer (libs/outbox/src/guest/announcements.ts). */
const OFFER_ENDINGS: Announcement[] = ['offer-withdrawn', 'offer-lapsed'];

/**
 * How long a claimed message may take to be handed over: a run claims up to 50, four recipients at
 * a time, each hand-over answered within the provider timeout (10 s), so about two minutes at worst.
 * One still `sending` after this was left by a relay that died: it no longer holds its recipient's
 * later messages back (it is never sent again; a person checks it).
 */
const IN_FLIGHT_AT_MOST_MS = 3 * 60_000;

/** A held-back message the provider had refused is `failed`; one never handed over stays `recorded`. */
const GIVE_UP_STATUS = `CASE WHEN m.failure_reason IS NOT NULL THEN 'failed' ELSE m.status END`;
const GAVE_UP_COLUMNS = 'm.id, m.venue_id, m.entry_id, m.channel, m.status';

/** The relay's reads and writes of the outbox: claims under `FOR UPDATE SKIP LOCKED`, outcomes. */
@Injectable()
export class OutboxRelayRepository {
  /**
   * Marks the recorded messages of `channels` that must not reach a provider, with the reason:
   * a sandbox venue's (simulated clock, rehearsal data), a table-ready whose offer is no longer live
   * at `now`, anything recorded before `staleBefore` ("by 6:05 PM" hours later helps nobody). They
   * stay `recorded`, the manager's list shows why, and they leave the pending set for good.
   *
   * One that the provider had already refused (waiting for its next try, `failure_reason` set) is
   * `failed` instead: the guest never got it because the provider did not take it, as after a fourth
   * refusal, and the party must read "not reached". A hold shorter than the retries (10 s + 30 s +
   * 90 s) ends before that fourth try, and the board otherwise never said so. Those come back
   * (`gaveUp`) so the boards hear of them.
   */
  async holdBack(
    tx: EntityManager,
    channels: OutboxChannel[],
    now: Date,
    staleBefore: Date,
    maxAgeMinutes: number,
  ): Promise<{ held: number; gaveUp: GaveUp[] }> {
    const rows = returningRows<GaveUp & { status: string }>(
      await tx.query(
        `UPDATE outbox_messages m SET not_sent_reason = h.reason, status = ${GIVE_UP_STATUS}
           FROM (SELECT c.id,
                        CASE WHEN v.sandbox THEN $3::text
                             WHEN c.template = $6::text AND NOT EXISTS (
                                  SELECT 1 FROM offers o
                                   WHERE o.reservation_id = c.reservation_id AND o.state = 'live' AND o.expires_at > $2)
                               THEN $4::text
                             WHEN c.created_at < $5 THEN $7::text END AS reason
                   FROM outbox_messages c JOIN venues v ON v.id = c.venue_id
                  WHERE c.status = 'recorded' AND c.not_sent_reason IS NULL AND c.channel = ANY($1)
                    AND c.template <> $8::text
                    FOR UPDATE OF c SKIP LOCKED) h
          WHERE m.id = h.id AND h.reason IS NOT NULL
      RETURNING ${GAVE_UP_COLUMNS}`,
        [
          channels,
          now,
          NOT_SENT.sandbox,
          NOT_SENT.offerEnded,
          staleBefore,
          TABLE_READY,
          NOT_SENT.tooOld(maxAgeMinutes),
          INVITATION,
        ],
      ),
    );
    // A party that never heard its table was ready is not told the offer was withdrawn or lapsed:
    // not when that message was held back, nor at a contact staff corrected since it was addressed
    // (the new phone never had it, whatever became of it at the old one), unless the corrected
    // contact was sent the offer itself (OfferContactFollower).
    // (A second statement: the first one's marks are not visible to itself.)
    const followers = returningRows<GaveUp & { status: string }>(
      await tx.query(
        `UPDATE outbox_messages m SET not_sent_reason = h.reason, status = ${GIVE_UP_STATUS}
           FROM (SELECT c.id,
                        (SELECT CASE WHEN r.not_sent_reason IS NOT NULL THEN $2::text ELSE $5::text END
                           FROM outbox_messages r
                          -- The party's messages (outbox_messages_entry_idx), not the whole outbox.
                          WHERE r.entry_id = c.entry_id AND r.reservation_id = c.reservation_id
                            AND r.channel = c.channel AND r.template = $4::text
                            AND (r.not_sent_reason IS NOT NULL OR r.to_address <> c.to_address)
                            -- unless that contact was sent the offer too (after a correction)
                            AND NOT EXISTS (SELECT 1 FROM outbox_messages s
                                             WHERE s.entry_id = c.entry_id AND s.reservation_id = c.reservation_id
                                               AND s.channel = c.channel AND s.template = $4::text
                                               AND s.to_address = c.to_address AND s.not_sent_reason IS NULL)
                          LIMIT 1) AS reason
                   FROM outbox_messages c
                  WHERE c.status = 'recorded' AND c.not_sent_reason IS NULL AND c.channel = ANY($1)
                    AND c.template = ANY($3::text[]) AND c.reservation_id IS NOT NULL
                    FOR UPDATE OF c SKIP LOCKED) h
          WHERE m.id = h.id AND h.reason IS NOT NULL
      RETURNING ${GAVE_UP_COLUMNS}`,
        [channels, NOT_SENT.offerNeverSent, OFFER_ENDINGS, TABLE_READY, NOT_SENT.offerSentElsewhere],
      ),
    );
    const all = [...rows, ...followers];
    return {
      held: all.length,
      gaveUp: all
        .filter((r) => r.status === 'failed')
        .map(({ id, venue_id, entry_id, channel }) => ({ id, venue_id, entry_id, channel })),
    };
  }

  /**
   * Claims up to `limit` recorded messages of `channels` (`sending`), in the order recorded.
   * RETURNING gives rows in whatever order the update met them (the table's, not the subquery's),
   * which once told a party "no longer in the queue" before "your table is ready"; the final SELECT
   * orders them, and (created_at, id) breaks ties the same way every time.
   */
  async claim(tx: EntityManager, channels: OutboxChannel[], limit: number, now: Date): Promise<Claimed[]> {
    // Not before its backoff; and not while an earlier message to the same recipient waits for its
    // retry, so a retried "you are in the queue" never arrives after "your table is ready". Nor while
    // an earlier one is still being handed over by another run: runs start every five seconds
    // whether or not the last one finished, and with a slow provider "the host withdrew the table"
    // was handed over while "your table is ready" still waited for its answer.
    return returningRows<Claimed>(
      await tx.query(
        `WITH next AS (SELECT id FROM outbox_messages n
                        WHERE status = 'recorded' AND not_sent_reason IS NULL AND channel = ANY($2)
                          AND (retry_at IS NULL OR retry_at <= $3)
                          AND NOT EXISTS (SELECT 1 FROM outbox_messages e
                                           WHERE e.status = 'recorded' AND e.not_sent_reason IS NULL AND e.retry_at > $3
                                             AND e.channel = n.channel AND e.to_address = n.to_address
                                             AND (e.created_at, e.id) < (n.created_at, n.id))
                          AND NOT EXISTS (SELECT 1 FROM outbox_messages s
                                           WHERE s.status = 'sending' AND s.claimed_at > $4
                                             AND s.channel = n.channel AND s.to_address = n.to_address
                                             AND (s.created_at, s.id) < (n.created_at, n.id))
                        ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED),
              claimed AS (UPDATE outbox_messages m SET status = 'sending', claimed_at = $3 FROM next WHERE m.id = next.id
                RETURNING m.id, m.venue_id, m.entry_id, m.channel, m.to_address, m.subject, m.body, m.created_at, m.attempts)
         SELECT * FROM claimed ORDER BY created_at, id`,
        [limit, channels, now, new Date(now.getTime() - IN_FLIGHT_AT_MOST_MS)],
      ),
    );
  }

  /**
   * The provider did not take it: `recorded` again, tried no sooner than `retryAt`; its words kept.
   * Addressed afresh (see `backToRecorded`): the host may have corrected the party's contact while it
   * was with the provider.
   */
  async retryLater(tx: EntityManager, id: string, reason: string, retryAt: Date): Promise<void> {
    await this.backToRecorded(tx, [id], { retryAt, reason });
  }

  /** Claimed but not handed over (an earlier message to its recipient must go first): as it was, addressed afresh. */
  async release(tx: EntityManager, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.backToRecorded(tx, ids, null);
  }

  /**
   * A claimed message goes back to `recorded`. A correction of the party's contact skips messages
   * being handed over (OutboxWriter.readdress), so one that comes back is addressed here to the
   * contact the party has now on its channel, or held back with the reason when staff removed it;
   * otherwise the retry would reach the number the host had just said was wrong. Messages of a
   * booking (no queue entry) keep their address. When the contact it would now go to already has
   * that message of the booking (the table-ready text OfferContactFollower sent the corrected number
   * while this one was with the provider), it keeps its address and is held back with the reason:
   * the corrected number would otherwise get it twice.
   */
  private async backToRecorded(tx: EntityManager, ids: string[], retry: { retryAt: Date; reason: string } | null): Promise<void> {
    await tx.query(
      `UPDATE outbox_messages m
          SET status = 'recorded',
              attempts = m.attempts + CASE WHEN $4 THEN 1 ELSE 0 END,
              retry_at = CASE WHEN $4 THEN $2::timestamptz ELSE m.retry_at END,
              failure_reason = CASE WHEN $4 THEN $3 ELSE m.failure_reason END,
              to_address = CASE WHEN had.yes THEN m.to_address ELSE COALESCE(now_at.address, m.to_address) END,
              not_sent_reason = CASE WHEN e.id IS NOT NULL AND now_at.address IS NULL THEN $5
                                     WHEN had.yes THEN $6
                                     ELSE m.not_sent_reason END
         FROM outbox_messages o
         LEFT JOIN queue_entries e ON e.id = o.entry_id
         LEFT JOIN LATERAL (SELECT CASE o.channel WHEN 'sms' THEN e.phone ELSE e.email END AS address) now_at ON true
         LEFT JOIN LATERAL (
              SELECT o.entry_id IS NOT NULL AND now_at.address IS DISTINCT FROM o.to_address
                     AND ${alreadyHad('o', 'now_at.address')} AS yes) had ON true
        WHERE m.id = o.id AND o.id = ANY($1::uuid[])`,
      [ids, retry?.retryAt ?? null, retry?.reason ?? null, retry !== null, NOT_SENT.contactRemoved, NOT_SENT.alreadyHad],
    );
  }

  async sent(tx: EntityManager, id: string, at: Date): Promise<void> {
    await tx.query(`UPDATE outbox_messages SET status = 'sent', sent_at = $2, failure_reason = NULL WHERE id = $1`, [id, at]);
  }

  async failed(tx: EntityManager, id: string, reason: string): Promise<void> {
    await tx.query(`UPDATE outbox_messages SET status = 'failed', attempts = attempts + 1, failure_reason = $2 WHERE id = $1`, [
      id,
      reason,
    ]);
  }
}
