import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@hostboard/core';
import { OutboxWriter, type MessageView } from './outbox.writer.js';

/** What a manager reviews: every email recorded for the venue, oldest first. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly outbox: OutboxWriter,
  ) {}

  list(venueId: string): Promise<MessageView[]> {
    return this.tx.run(({ manager }) => this.outbox.list(manager, venueId));
  }
}
