import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig, insertEntities, type PendingInsert } from '@hostboard/core';
import type { OutboxMessage } from '../outbox-message.entity.js';
import { OutboxWriter, type NewMessage } from '../outbox.writer.js';
import { announcement, type Announcement } from './announcements.js';

/** The party a message is about: its channels are the contacts it gave. */
export interface GuestParty {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
}

/**
 * Guest messages on every channel the party gave: an email to its address, a text to its phone.
 * Written in the caller's transaction, so a message exists exactly when the change it reports
 * committed (and a replayed command, answered from its stored result, writes none).
 */
@Injectable()
export class GuestMessenger {
  constructor(
    private readonly outbox: OutboxWriter,
    private readonly config: AppConfig,
  ) {}

  /** The queue page, without a token (the party's phone keeps that): `{PUBLIC_URL}/q/`, or null when unset. */
  get queueLink(): string | null {
    return this.config.PUBLIC_URL ? `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/q/` : null;
  }

  /** An email body with the queue page's address as its last line (when PUBLIC_URL is set). */
  withQueueLink<T extends { body: string }>(email: T): T {
    const link = this.queueLink;
    return link ? { ...email, body: `${email.body}\nYour queue page: ${link}` } : email;
  }

  /** Records a text when the party gave a phone. */
  async text(
    tx: EntityManager,
    m: { venueId: string; party: GuestParty; template: string; body: string; at: Date; reservationId?: string | null },
  ): Promise<void> {
    if (!m.party.phone) return;
    await this.outbox.record(tx, {
      venueId: m.venueId,
      channel: 'sms',
      to: m.party.phone,
      template: m.template,
      subject: '',
      body: m.body,
      entryId: m.party.id,
      reservationId: m.reservationId ?? null,
      at: m.at,
    });
  }

  /** One announcement, on each channel the party gave. */
  async announce(tx: EntityManager, m: AnnouncementTo): Promise<void> {
    const { target, rows } = this.announcementRows([m]);
    await insertEntities(tx, target, rows);
  }

  /**
   * The rows `announce` writes for each of several announcements, in one insert: an expiry sweep
   * announces every offer it ended in one statement, with the same words as one by one.
   */
  announcementRows(list: AnnouncementTo[]): PendingInsert<OutboxMessage> {
    const messages: NewMessage[] = [];
    for (const m of list) {
      const said = announcement(m.kind, {
        venueName: m.venue.name,
        partyName: m.party.name,
        placeKept: m.placeKept,
        link: this.queueLink,
        table: m.table ?? null,
      });
      const base = {
        venueId: m.venue.id,
        template: m.kind,
        entryId: m.party.id,
        reservationId: m.reservationId ?? null,
        at: m.at,
      };
      if (m.party.email) messages.push({ ...base, channel: 'email', to: m.party.email, subject: said.subject, body: said.body });
      if (m.party.phone) messages.push({ ...base, channel: 'sms', to: m.party.phone, subject: '', body: said.text });
    }
    return this.outbox.rows(messages);
  }
}

/** One announcement to one party (`GuestMessenger.announce`). */
export interface AnnouncementTo {
  venue: { id: string; name: string };
  party: GuestParty;
  kind: Announcement;
  placeKept: boolean;
  at: Date;
  reservationId?: string | null;
  /** A removal's released table (`queue-removed`): the one offered, or the one confirmed. */
  table?: 'offered' | 'confirmed' | null;
}
