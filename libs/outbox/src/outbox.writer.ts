import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertEntities, type PendingInsert } from '@hostboard/core';
import { OutboxMessage, type OutboxChannel } from './outbox-message.entity.js';

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
}

/** Records guest messages in the transaction of the change they report (recorded, not sent). */
@Injectable()
export class OutboxWriter {
  async record(tx: EntityManager, m: NewMessage): Promise<void> {
    const { target, rows } = this.row(m);
    await insertEntities(tx, target, rows);
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
        id: randomUUID(),
        venueId: m.venueId,
        channel: m.channel ?? 'email',
        to: m.to,
        template: m.template,
        subject: m.subject,
        body: m.body,
        status: 'recorded',
        entryId: m.entryId ?? null,
        reservationId: m.reservationId ?? null,
        createdAt: m.at,
        failureReason: null,
        notSentReason: null,
        attempts: 0,
        retryAt: null,
        sentAt: null,
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
  };
}
