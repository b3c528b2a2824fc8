import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OutboxWriter, type NewMessage } from '@hostboard/outbox';
import { EntryCorrectionHooks, type CorrectedContact } from '@hostboard/queue';
import { OfferRepository } from '../offers/offer.repository.js';
import { TABLE_READY_TEMPLATE } from './table-ready.email.js';
import { holdLeftSeconds, TableReadyMessages } from './table-ready.messages.js';

/**
 * A host corrects the phone of a party whose table is on hold ("I never got a text"): the text that
 * went to the wrong number told the right one nothing. The corrected contact is sent "your table is
 * ready" with what is left of the hold, unless a message of that offer is already on its way to it
 * (a message the relay had not taken follows the correction: OutboxWriter.readdress). The same for a
 * corrected or added email.
 */
@Injectable()
export class OfferContactFollower implements OnModuleInit {
  constructor(
    private readonly hooks: EntryCorrectionHooks,
    private readonly offers: OfferRepository,
    private readonly outbox: OutboxWriter,
    private readonly ready: TableReadyMessages,
  ) {}

  onModuleInit(): void {
    this.hooks.onContactCorrected((tx, c) => this.follow(tx, c));
  }

  private async follow(tx: EntityManager, c: CorrectedContact): Promise<void> {
    // A pool venue's promoted group is sent no "your table is ready" (its promotion sends nothing):
    // a correction must not send one either.
    if (c.venue.seating !== 'tables' || c.entry.status !== 'offered') return;
    const offer = await this.offers.liveForEntry(tx, c.entry.id);
    const holdSeconds = offer ? holdLeftSeconds(offer.expiresAt, c.at) : 0;
    if (!offer || holdSeconds <= 0) return;
    const messages: NewMessage[] = [];
    for (const m of this.ready.build({
      venue: c.venue,
      party: { id: c.entry.id, name: c.entry.name, ...c.after },
      reservationId: offer.reservationId,
      expiresAt: offer.expiresAt,
      holdSeconds,
      at: c.at,
    })) {
      const before = m.channel === 'sms' ? c.before.phone : c.before.email;
      if (m.to === before) continue;
      const onItsWay = await this.outbox.hasMessage(tx, {
        entryId: c.entry.id,
        reservationId: offer.reservationId,
        template: TABLE_READY_TEMPLATE,
        channel: m.channel ?? 'email',
        to: m.to,
      });
      if (!onItsWay) messages.push(m);
    }
    if (messages.length > 0) await this.outbox.recordAll(tx, messages);
  }
}
