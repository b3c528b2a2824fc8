import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertEntities, type PendingInsert } from '@hostboard/core';
import { inSmsAlphabet } from './channels/sms-alphabet.js';
import { nextMessageId } from './message-id.js';
import { OutboxMessage, type OutboxChannel } from './outbox-message.entity.js';
import { alreadyHad, NOT_SENT } from './outbox-relay.repository.js';

export interface NewMessage {
  venueId: string;
  /** Default `email`. */
  channel?: OutboxChannel;
  to: string;
  template: string;
  /** Empty for a text. */
  subject: string;
  body: string;
  entryId?: string | null;
  reservationId?: string | null;
  at: Date;
}

export interface MessageView {
  id: string;
  channel: OutboxChannel;
  to: string;
  template: string;
  subject: string;
  body: string;
  createdAt: string;
  status: string;
  /** The provider's words when the status is `failed` (or `recorded`, waiting to be tried again). */
  failureReason?: string;
  /** Why a `recorded` message will not be sent (a sandbox venue, an ended offer, too old). */
  notSentReason?: string;
  entryId?: string;
  reservationId?: string;
  /** When the provider took it (status `sent`). */
  sentAt?: string;
  /** The party it was about, by its name now (the messages list only). */
  partyName?: string;
  /**
   * `true` on a `recorded` message not held back whose channel has no provider set up (SMS_URL for
   * texts, SMTP_URL for emails): nothing will hand it over, so it will not be sent (the messages list only).
   */
  noProvider?: true;
}

/** Records guest messages in the transaction of the change they report (recorded, not sent). */
@Injectable()
export class OutboxWriter {
  record(tx: EntityManager, m: NewMessage): Promise<void> {
    return this.recordAll(tx, [m]);
  }

  async recordAll(tx: EntityManager, messages: NewMessage[]): Promise<void> {
    const { target, rows } = this.rows(messages);
    await insertEntities(tx, target, rows);
  }

  /** Whether a message of this kind about a party's booking went, or is to go, to `to` (one held back or failed does not count). */
  async hasMessage(
    tx: EntityManager,
    m: { entryId: string; reservationId: string; template: string; channel: OutboxChannel; to: string },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM outbox_messages
        WHERE entry_id = $1 AND reservation_id = $2 AND template = $3 AND channel = $4 AND to_address = $5
          AND status <> 'failed' AND not_sent_reason IS NULL
        LIMIT 1`,
      [m.entryId, m.reservationId, m.template, m.channel, m.to],
    );
    return rows.length > 0;
  }

  /** Whether a message of this kind about a party (any booking or none) went, or is to go, to `to` (one held back or failed does not count). */
  async hasEntryMessage(
    tx: EntityManager,
    m: { entryId: string; template: string; channel: OutboxChannel; to: string },
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM outbox_messages
        WHERE entry_id = $1 AND template = $2 AND channel = $3 AND to_address = $4
          AND status <> 'failed' AND not_sent_reason IS NULL
        LIMIT 1`,
      [m.entryId, m.template, m.channel, m.to],
    );
    return rows.length > 0;
  }

  /**
   * Staff corrected a party's contact on `channel` from `from` to `to` (null: removed). A message is
   * addressed when it is recorded, so what the relay has not taken yet would still go to the address
   * the host just said was wrong: it goes to the corrected one instead, or, for a removed contact, is
   * held back with the reason. A message already being handed over (`sending`) is left to finish.
   */
  async readdress(
    tx: EntityManager,
    m: { entryId: string; channel: OutboxChannel; from: string; to: string | null },
  ): Promise<void> {
    if (m.to !== null) {
      // Corrected back to a contact that already had that message (a table-ready text, or the
      // queueing text, it was sent before a mistyped number was corrected back): the copy recorded
      // for the mistyped one would reach it a second time. It stays recorded with the reason instead.
      await tx.query(
        `UPDATE outbox_messages m SET not_sent_reason = $5
          WHERE m.entry_id = $1 AND m.channel = $2 AND m.to_address = $3 AND m.status = 'recorded'
            AND m.not_sent_reason IS NULL AND ${alreadyHad('m', '$4')}`,
        [m.entryId, m.channel, m.from, m.to, NOT_SENT.alreadyHad],
      );
    }
    await tx.query(
      m.to === null
        ? `UPDATE outbox_messages SET not_sent_reason = $4
            WHERE entry_id = $1 AND channel = $2 AND to_address = $3 AND status = 'recorded' AND not_sent_reason IS NULL`
        : `UPDATE outbox_messages SET to_address = $4
            WHERE entry_id = $1 AND channel = $2 AND to_address = $3 AND status = 'recorded' AND not_sent_reason IS NULL`,
      [m.entryId, m.channel, m.from, m.to ?? NOT_SENT.contactRemoved],
    );
  }

  /**
   * Holds back, with `reason`, the messages of `template` to `to` at a venue that the relay has not
   * taken yet: what they carry stopped being true (the link of an invitation just cancelled). One
   * already being handed over (`sending`) is left to finish.
   */
  async holdBackUnsent(tx: EntityManager, m: { venueId: string; template: string; to: string; reason: string }): Promise<void> {
    await tx.query(
      `UPDATE outbox_messages SET not_sent_reason = $4
        WHERE venue_id = $1 AND template = $2 AND to_address = $3 AND status = 'recorded' AND not_sent_reason IS NULL`,
      [m.venueId, m.template, m.to, m.reason],
    );
  }

  /** The row `record` writes, for a caller that writes it together with its other rows. */
  row(m: NewMessage): PendingInsert<OutboxMessage> {
    return this.rows([m]);
  }

  /** The rows of several messages, in one insert (a sweep announces many ended offers at once). */
  rows(messages: NewMessage[]): PendingInsert<OutboxMessage> {
    return {
      target: OutboxMessage,
      rows: messages.map((m) => ({
        // In the order recorded (see nextMessageId): ties of created_at are broken by the id.
        id: nextMessageId(),
        venueId: m.venueId,
        channel: m.channel ?? 'email',
        to: m.to,
        template: m.template,
        subject: m.subject,
        // A text as the guest's phone gets it (and the manager reads it): in the SMS alphabet.
        body: m.channel === 'sms' ? inSmsAlphabet(m.body) : m.body,
        status: 'recorded',
        entryId: m.entryId ?? null,
        reservationId: m.reservationId ?? null,
        createdAt: m.at,
        failureReason: null,
        notSentReason: null,
        attempts: 0,
        retryAt: null,
        sentAt: null,
        claimedAt: null,
      })),
    };
  }
}

export function toMessageView(r: OutboxMessage): MessageView {
  return {
    id: r.id,
    channel: r.channel,
    to: r.to,
    template: r.template,
    subject: r.subject,
    body: r.body,
    createdAt: r.createdAt.toISOString(),
    status: r.status,
    ...(r.failureReason ? { failureReason: r.failureReason } : {}),
    ...(r.notSentReason ? { notSentReason: r.notSentReason } : {}),
    ...(r.entryId ? { entryId: r.entryId } : {}),
    ...(r.reservationId ? { reservationId: r.reservationId } : {}),
    ...(r.sentAt ? { sentAt: r.sentAt.toISOString() } : {}),
  };
}
