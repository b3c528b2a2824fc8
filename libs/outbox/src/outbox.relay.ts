import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BoardEventWriter } from '@hostboard/board';
import { Clock, returningRows, TransactionRunner } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import { EmailChannel } from './channels/email.channel.js';
import type { GuestChannel } from './channels/guest-channel.js';
import { SmsAdapter } from './channels/sms.adapter.js';
import type { OutboxChannel } from './outbox-message.entity.js';

/** At most this many messages per relay run. */
const BATCH = 50;

interface Claimed {
  id: string;
  venue_id: string;
  entry_id: string | null;
  channel: OutboxChannel;
  to_address: string;
  subject: string;
  body: string;
  created_at: Date;
}

/**
 * Relays recorded messages to the providers that are configured: emails over SMTP when SMTP_URL is
 * set, texts to a Twilio-compatible API when SMS_URL is set; a channel without a provider keeps its
 * messages `recorded`. At most once: a message is claimed (`sending`) in a committed transaction
 * before it is handed to the provider, so a crash mid-send never sends it a second time; it is
 * left `sending` for a person to check rather than risk a duplicate. Claims skip rows another
 * process has locked, so any number of workers relay side by side.
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
    // Sent in the order recorded: RETURNING gives rows in whatever order the update met them (the
    // table's, not the subquery's), which once told a party "no longer in the queue" before "your
    // table is ready". The final SELECT orders them; (created_at, id) breaks ties the same way every time.
    const claimed = await this.tx.run(async ({ manager }) =>
      returningRows<Claimed>(
        await manager.query(
          `WITH next AS (SELECT id FROM outbox_messages WHERE status = 'recorded' AND channel = ANY($2)
                          ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED),
                claimed AS (UPDATE outbox_messages m SET status = 'sending' FROM next WHERE m.id = next.id
                  RETURNING m.id, m.venue_id, m.entry_id, m.channel, m.to_address, m.subject, m.body, m.created_at)
           SELECT * FROM claimed ORDER BY created_at, id`,
          [BATCH, [...this.channels.keys()]],
        ),
      ),
    );
    let sent = 0;
    for (const m of claimed) {
      const channel = this.channels.get(m.channel);
      try {
        if (!channel) throw new Error(`no provider for ${m.channel}`);
        await channel.send({ id: m.id, to: m.to_address, subject: m.subject, body: m.body });
        await this.sent(m.id);
        sent++;
      } catch (err) {
        const reason = (err as Error).message || 'the provider refused it';
        this.logger.warn(`${m.channel} ${m.id} failed: ${reason}`);
        await this.failed(m, reason);
      }
    }
    return sent;
  }

  private async sent(id: string): Promise<void> {
    await this.tx.run(({ manager }) =>
      manager.query(`UPDATE outbox_messages SET status = 'sent', sent_at = $2 WHERE id = $1`, [id, this.clock.now()]),
    );
  }

  /** Failed, with the provider's reason; the boards hear of it, since the party's row shows its reach. */
  private async failed(m: Claimed, reason: string): Promise<void> {
    await this.tx.run(async (tx) => {
      await tx.manager.query(`UPDATE outbox_messages SET status = 'failed', failure_reason = $2 WHERE id = $1`, [m.id, reason]);
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
