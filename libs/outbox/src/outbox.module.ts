import { Module } from '@nestjs/common';
import { MessagesController } from './http/messages.controller.js';
import { MessagesRepository } from './messages.repository.js';
import { MessagesService } from './messages.service.js';
import { OutboxRelay } from './outbox.relay.js';
import { OutboxRelayRepository } from './outbox-relay.repository.js';
import { OutboxWriter } from './outbox.writer.js';
import { GuestMessenger } from './guest/guest.messenger.js';
import { ReachReader } from './guest/reach.reader.js';
import { SmsAdapter } from './channels/sms.adapter.js';
import { EmailChannel } from './channels/email.channel.js';

/**
 * Guest messages on every channel (email, text): written in the transaction of the change they
 * report, read by managers, relayed to the providers that are configured.
 */
@Module({
  controllers: [MessagesController],
  providers: [
    OutboxWriter,
    MessagesService,
    MessagesRepository,
    OutboxRelay,
    OutboxRelayRepository,
    GuestMessenger,
    ReachReader,
    EmailChannel,
    SmsAdapter,
  ],
  exports: [OutboxWriter, OutboxRelay, GuestMessenger, ReachReader, EmailChannel, SmsAdapter],
})
export class OutboxModule {}
