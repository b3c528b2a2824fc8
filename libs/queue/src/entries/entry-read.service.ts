import { Injectable } from '@nestjs/common';
import { DomainException, HistoryWriter, TransactionRunner, type HistoryView } from '@hostboard/core';
import { VenueRepository } from '@hostboard/venue';
import { QuoteService } from '../quote/quote.service.js';
import { QueueEntryRepository } from './queue-entry.repository.js';
import { toEntryView, type EntryView } from './queue-entry.view.js';

export interface EntryDetail {
  /** In any status; `queueSequence` and `receivedAt` are its place, kept for ever. */
  entry: EntryView;
  /** What the party was quoted when it joined (position, people ahead, minutes, when). */
  quote: { position: number | null; ahead: number | null; waitMinutes: number | null; quotedAt: string | null };
  /** Where it stands now, counted as the quote counts; null once it has left the active queue. */
  position: number | null;
  ahead: number | null;
  /** Every state change of the entry, oldest first. */
  history: HistoryView[];
  /**
   * How the venue reaches the party, as stored (email lower-cased, phone in E.164), for the host
   * correcting a misheard address. Only here, read when one party is opened: the board snapshot,
   * which every tablet receives on every change, carries no contacts.
   */
  contact: { email: string | null; phone: string | null };
}

/** One queue entry for staff, whatever its status: the active queue read shows only waiting ones. */
@Injectable()
export class EntryReadService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly entries: QueueEntryRepository,
    private readonly quotes: QuoteService,
    private readonly history: HistoryWriter,
  ) {}

  async detail(venueId: string, entryId: string): Promise<EntryDetail> {
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      const entry = venue ? await this.entries.find(manager, venueId, entryId) : null;
      if (!venue || !entry) throw DomainException.notFound('The queue entry was not found.');
      const standing = await this.quotes.positionOf(manager, venue, entry);
      return {
        entry: toEntryView(entry),
        quote: {
          position: entry.quotedPosition,
          ahead: entry.quotedPosition === null ? null : entry.quotedPosition - 1,
          waitMinutes: entry.quotedWaitMinutes,
          quotedAt: entry.quotedAt ? entry.quotedAt.toISOString() : null,
        },
        position: standing?.position ?? null,
        ahead: standing?.ahead ?? null,
        history: await this.history.list(manager, venueId, entry.id),
        contact: { email: entry.email, phone: entry.phone },
      };
    });
  }
}
