import { Injectable } from '@nestjs/common';
import { AppConfig, DomainException, pageLimit, SweepFirst, toPage, TransactionRunner, type Page } from '@hostboard/core';
import { MessagesRepository, type MessageFilter } from './messages.repository.js';
import { toMessageView, type MessageView } from './outbox.writer.js';
import type { MessagesQueryDto } from './http/messages-query.dto.js';
import { recordedRecipient } from './recipient-filter.js';

/** The cursor is the last row's (created_at, id), base64url: opaque to clients, exact for the keyset. */
export function encodeCursor(m: { createdAt: string; id: string }): string {
  return Buffer.from(`${m.createdAt}|${m.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  // JavaScript reads dates back to 271821 BC; PostgreSQL's timestamptz starts at 4713 BC and refused
  // such a cursor with a 500. Our own cursors name when a message was recorded: years 1 to 9999.
  const year = createdAt.getUTCFullYear();
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime()) || year < 1 || year > 9999)
    throw DomainException.validation('before must be a cursor from a previous page’s Link header.', { field: 'before' });
  return { createdAt, id };
}

/** What a manager reviews: every message recorded for the venue, both channels, newest first, in pages. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly repo: MessagesRepository,
    private readonly config: AppConfig,
    private readonly sweepFirst: SweepFirst,
  ) {}

  async page(venueId: string, q: MessagesQueryDto): Promise<Page<MessageView>> {
    const limit = pageLimit(q);
    const provider = { sms: Boolean(this.config.SMS_URL), email: Boolean(this.config.SMTP_URL) };
    const noProvider = (['sms', 'email'] as const).filter((c) => !provider[c]);
    const filter: MessageFilter = {
      ...(q.undelivered === 'true' ? { undelivered: { noProvider } } : {}),
      ...(q.template !== undefined ? { template: q.template } : {}),
      ...(q.channel !== undefined ? { channel: q.channel } : {}),
      ...(q.status !== undefined ? { status: q.status } : {}),
      ...(q.before !== undefined ? { before: decodeCursor(q.before) } : {}),
    };
    // One row more than asked says whether an older page exists, so nothing is cut silently. A
    // recipient is read with the venue's country, in the same read.
    // An empty recipient (`?to=`, or only spaces) is no filter: it listed nothing before.
    const typed = q.to?.trim() ?? '';
    // A hold that lapsed with no job to end it yet has its party's message recorded before the list
    // is read, as the board shows it ended (SweepFirst).
    await this.sweepFirst.of(venueId);
    const { rows, names } = await this.tx.read(async (m) => {
      const to = typed !== '' ? { to: recordedRecipient(typed, await this.repo.countryOf(m, venueId)) } : {};
      // Words with a letter and no @ are a name too ("Marta", "joão"); a number or an address is not.
      const name = typed !== '' && !typed.includes('@') && /\p{L}/u.test(typed) ? { name: typed } : {};
      const page = await this.repo.page(m, venueId, { ...filter, ...to, ...name }, limit + 1);
      return { rows: page, names: await this.repo.partyNames(m, page) };
    });
    // A channel without a provider keeps its messages recorded for good: the manager is told so,
    // rather than reading "not sent yet" forever.
    return toPage(
      rows.map((r) => {
        const view = toMessageView(r);
        if (r.status === 'recorded' && !r.notSentReason && !provider[r.channel]) view.noProvider = true;
        const partyName = names.get(r.entryId ?? r.reservationId ?? '');
        return partyName === undefined ? view : Object.assign(view, { partyName });
      }),
      limit,
      encodeCursor,
    );
  }
}
