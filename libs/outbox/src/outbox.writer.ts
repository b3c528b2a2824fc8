import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Not, type EntityManager } from 'typeorm';
import { insertEntities } from '@hostboard/core';
import { OutboxMessage } from './outbox-message.entity.js';

export interface NewMessage {
  venueId: string;
  to: string;
  template: string;
  subject: string;
  body: string;
  entryId?: string | null;
  reservationId?: string | null;
  at: Date;
}

export interface MessageView {
  id: string;
  to: string;
  template: string;
  subject: string;
  body: string;
  createdAt: string;
  status: string;
  entryId?: string;
  reservationId?: string;
}

/** Records guest emails in the transaction of the change they report (recorded, not sent). */
@Injectable()
export class OutboxWriter {
  async record(tx: EntityManager, m: NewMessage): Promise<void> {
    await insertEntities(tx, OutboxMessage, [
      {
        id: randomUUID(),
        venueId: m.venueId,
        to: m.to,
        template: m.template,
        subject: m.subject,
        body: m.body,
        status: 'recorded',
        entryId: m.entryId ?? null,
        reservationId: m.reservationId ?? null,
        createdAt: m.at,
        sentAt: null,
      },
    ]);
  }

  async list(tx: EntityManager, venueId: string): Promise<MessageView[]> {
    // Staff invitations carry a one-time link meant for one person: never listed to the venue's managers.
    const rows = await tx.find(OutboxMessage, { where: { venueId, template: Not('staff-invitation') }, order: { createdAt: 'ASC', id: 'ASC' }, take: 1000 });
    return rows.map((r) => ({
      id: r.id,
      to: r.to,
      template: r.template,
      subject: r.subject,
      body: r.body,
      createdAt: r.createdAt.toISOString(),
      status: r.status,
      ...(r.entryId ? { entryId: r.entryId } : {}),
      ...(r.reservationId ? { reservationId: r.reservationId } : {}),
    }));
  }
}
