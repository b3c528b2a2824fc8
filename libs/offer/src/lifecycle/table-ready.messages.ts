import { Injectable } from '@nestjs/common';
import { GuestMessenger, tableReadyText, type NewMessage } from '@hostboard/outbox';
import { VenueClock, type Venue } from '@hostboard/venue';
import { holdLengthWords, TABLE_READY_TEMPLATE, tableReadyEmail } from './table-ready.email.js';

export interface TableReadyFacts {
  venue: Pick<Venue, 'id' | 'name' | 'timeZone'>;
  party: { id: string; name: string; email: string | null; phone: string | null };
  reservationId: string;
  expiresAt: Date;
  /** The hold the message promises: the venue's whole hold for a new offer, what is left of it for a resend. */
  holdSeconds: number;
  at: Date;
}

/** An offer's "your table is ready": the email to the party's address and the text to its phone, each when given. */
@Injectable()
export class TableReadyMessages {
  constructor(
    private readonly guest: GuestMessenger,
    private readonly clock: VenueClock,
  ) {}

  build(f: TableReadyFacts): NewMessage[] {
    // With its zone: on the night clocks fall back, 1:35 AM happens twice.
    const expiresAtLocal = this.clock.localStamp(f.venue, f.expiresAt);
    const base = {
      venueId: f.venue.id,
      template: TABLE_READY_TEMPLATE,
      entryId: f.party.id,
      reservationId: f.reservationId,
      at: f.at,
    };
    const messages: NewMessage[] = [];
    if (f.party.email) {
      const email = tableReadyEmail({
        venueName: f.venue.name,
        partyName: f.party.name,
        holdSeconds: f.holdSeconds,
        expiresAtLocal,
      });
      messages.push({ ...base, channel: 'email', to: f.party.email, ...this.guest.withQueueLink(email) });
    }
    if (f.party.phone) {
      const body = tableReadyText({
        venueName: f.venue.name,
        holdLength: holdLengthWords(f.holdSeconds),
        expiresAtLocal,
        link: this.guest.queueLink,
      });
      messages.push({ ...base, channel: 'sms', to: f.party.phone, subject: '', body });
    }
    return messages;
  }
}

/**
 * What is left of a hold at `at`, as a resent message promises it: whole minutes from a minute on,
 * else seconds, always rounded down so it promises no time the hold does not give.
 */
export function holdLeftSeconds(expiresAt: Date, at: Date): number {
  const left = Math.floor((expiresAt.getTime() - at.getTime()) / 1000);
  return left >= 60 ? Math.floor(left / 60) * 60 : Math.max(left, 0);
}
