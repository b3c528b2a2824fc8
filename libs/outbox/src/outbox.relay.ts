import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { AppConfig, Clock, returningRows, TransactionRunner } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';

/** At most this many messages per relay run. */
const BATCH = 50;

interface Claimed {
  id: string;
  to_address: string;
  subject: string;
  body: string;
}

/**
 * Relays recorded emails to the provider (SMTP through nodemailer) when SMTP_URL is set; otherwise
 * they stay `recorded`. At most once: a message is claimed (`sending`) in a committed transaction
 * before it is handed to the provider, so a crash mid-send never sends it a second time; it is
 * left `sending` for a person to check rather than risk a duplicate.
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private transport?: Transporter;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly scheduler: JobScheduler,
  ) {}

  onModuleInit(): void {
    if (!this.config.SMTP_URL) return;
    this.transport = nodemailer.createTransport(this.config.SMTP_URL);
    this.scheduler.handle('outbox-relay', async () => ((await this.relay()) > 0 ? 'done' : 'skipped'));
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }

  /** Sends what is recorded; answers how many were handed to the provider. */
  async relay(): Promise<number> {
    const transport = this.transport;
    if (!transport) return 0;
    const claimed = await this.tx.run(async ({ manager }) =>
      returningRows<Claimed>(
        await manager.query(
          `UPDATE outbox_messages SET status = 'sending'
            WHERE id IN (SELECT id FROM outbox_messages WHERE status = 'recorded' ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, to_address, subject, body`,
          [BATCH],
        ),
      ),
    );
    let sent = 0;
    for (const m of claimed) {
      try {
        await transport.sendMail({ from: this.config.SMTP_FROM, to: m.to_address, subject: m.subject, text: m.body });
        await this.mark(m.id, 'sent');
        sent++;
      } catch (err) {
        this.logger.warn(`email ${m.id} failed: ${(err as Error).message}`);
        await this.mark(m.id, 'failed');
      }
    }
    return sent;
  }

  private async mark(id: string, status: 'sent' | 'failed'): Promise<void> {
    await this.tx.run(({ manager }) =>
      manager.query('UPDATE outbox_messages SET status = $2, sent_at = $3 WHERE id = $1', [
        id,
        status,
        status === 'sent' ? this.clock.now() : null,
      ]),
    );
  }
}
