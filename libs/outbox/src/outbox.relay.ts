import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BoardEventWriter } from '@hostboard/board';
import { AppConfig, Clock, TransactionRunner } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import { EmailChannel } from './channels/email.channel.js';
import type { GuestChannel } from './channels/guest-channel.js';
import { SmsAdapter } from './channels/sms.adapter.js';
import type { OutboxChannel } from './outbox-message.entity.js';
import { OutboxRelayRepository, type Claimed } from './outbox-relay.repository.js';

/** At most this many messages per relay run. */
const BATCH = 50;

/**
 * Relays recorded messages to the providers that are configured: emails over SMTP when SMTP_URL is
 * set, texts to a Twilio-compatible API when SMS_URL is set; a channel without a provider keeps its
 * messages `recorded`. At most once: a message is claimed (`sending`) in a committed transaction
 * before it is handed to the provider, so a crash mid-send never sends it a second time; it is
 * left `sending` for a person to check rather than risk a duplicate. Claims skip rows another
 * process has locked, so any number of workers relay side by side.
 *
 * What a provider never gets: a sandbox venue's messages, a table-ready text whose offer has ended
 * (and the withdrawal or lapse that followed it), and anything older than OUTBOX_MAX_AGE_MINUTES (a
 * worker started with a provider after running without one would otherwise send every message ever
 * recorded). Those stay `recorded`, with the reason (`notSentReason`).
 */
@Injectable()
export class OutboxRelay implements OnModuleInit {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly channels: Map<OutboxChannel, GuestChannel>;

  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly scheduler: JobScheduler,
    private readonly board: BoardEventWriter,
    private readonly config: AppConfig,
    private readonly repo: OutboxRelayRepository,
    email: EmailChannel,
    sms: SmsAdapter,
  ) {
    this.channels = new Map<OutboxChannel, GuestChannel>(
      [email, sms].filter((c) => c.configured).map((c): [OutboxChannel, GuestChannel] => [c.channel, c]),
    );
  }

  onModuleInit(): void {
    if (this.channels.size === 0) return;
    this.scheduler.handle('outbox-relay', async () => ((await this.relay()) > 0 ? 'done' : 'skipped'));
  }

  /** Sends what is recorded on the configured channels; answers how many the providers took. */
  async relay(): Promise<number> {
    if (this.channels.size === 0) return 0;
    const channels = [...this.channels.keys()];
    const claimed = await this.tx.run(async ({ manager }) => {
      // The injected clock is the live venues' time; a sandbox's messages are held back whatever
      // their simulated stamps say.
      const now = this.clock.now();
      const maxAge = this.config.OUTBOX_MAX_AGE_MINUTES;
      const staleBefore = new Date(now.getTime() - maxAge * 60_000);
      const held = await this.repo.holdBack(manager, channels, now, staleBefore, maxAge);
      if (held > 0) this.logger.log(`${held} recorded messages held back (sandbox, ended offer or too old)`);
      return this.repo.claim(manager, channels, BATCH);
    });
    let sent = 0;
    for (const m of claimed) {
      const channel = this.channels.get(m.channel);
      try {
        if (!channel) throw new Error(`no provider for ${m.channel}`);
        await channel.send({ id: m.id, to: m.to_address, subject: m.subject, body: m.body });
        await this.tx.run(({ manager }) => this.repo.sent(manager, m.id, this.clock.now()));
        sent++;
      } catch (err) {
        const reason = (err as Error).message || 'the provider refused it';
        this.logger.warn(`${m.channel} ${m.id} failed: ${reason}`);
        await this.failed(m, reason);
      }
    }
    return sent;
  }

  /** Failed, with the provider's reason; the boards hear of it, since the party's row shows its reach. */
  private async failed(m: Claimed, reason: string): Promise<void> {
    await this.tx.run(async (tx) => {
      await this.repo.failed(tx.manager, m.id, reason);
      if (m.entry_id)
        await this.board.append(
          tx,
          m.venue_id,
          'message.failed',
          { messageId: m.id, entryId: m.entry_id, channel: m.channel },
          this.clock.now(),
        );
    });
  }
}
