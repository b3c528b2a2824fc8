import { Module } from '@nestjs/common';
import { MessagesController } from './http/messages.controller.js';
import { MessagesService } from './messages.service.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxWriter } from './outbox.writer.js';

/** Recorded guest emails: written in the transaction of the change they report, read by managers. */
@Module({
  controllers: [MessagesController],
  providers: [OutboxWriter, MessagesService, OutboxRelay],
  exports: [OutboxWriter, OutboxRelay],
})
export class OutboxModule {}
