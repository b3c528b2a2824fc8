import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BoardEventWriter } from '@hostboard/board';
import { AppConfig, Clock, Metrics, TransactionRunner, type Tx } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import { EmailChannel } from './channels/email.channel.js';
import type { GuestChannel } from './channels/guest-channel.js';
import { ProviderError } from './channels/provider-error.js';
import { SmsAdapter } from './channels/sms.adapter.js';
import type { OutboxChannel } from './outbox-message.entity.js';
import { OutboxRelayRepository, type Claimed, type GaveUp } from './outbox-relay.repository.js';

/** At most this many messages per relay run. */
const BATCH = 50;
/**
 * Recipients served at once. Each recipient's messages go one after another, in the order recorded;
 * different recipients need not wait for each other, so one slow hand-over (up to the provider's
 * 10 s timeout) does not hold the table-ready texts of the rest of the batch past their hold.
 */
const RECIPIENTS_AT_ONCE = 4;
/**
 * After the provider clearly did not take a message (connection refused, 5xx, 429): the waits before
 * each new try. Four tries within about two minutes, well inside a five-minute hold; then `failed`.
 */
const RETRY_BACKOFF_MS = [10_000, 30_000, 90_000];

/**
 * Relays recorded messages to the providers that are configured: emails over SMTP when SMTP_URL is
 * set, texts to a Twilio-compatible API when SMS_URL is set; a channel without a provider keeps its
 * messages `recorded`. At most once: a message is claimed (`sending`) in a committed transaction
 * before it is handed to the provider, so a crash mid-send never sends it a second time; it is
 * left `sending` for a person to check rather than risk a duplicate. Claims skip rows another
 * process has locked, so any number of workers relay side by side. A refusal that left nothing with
 * the provider (ProviderError.retryable) is tried again after a backoff; any other error is final.
 *
 * What a provider never gets: a sandbox venue's messages, a table-ready text whose offer has ended
 * (and the withdrawal or lapse that followed it), and anything older than OUTBOX_MAX_AGE_MINUTES (a
 * worker started with a provider after running without one would otherwise send every message ever
 * recorded). Those stay `recorded`, with the reason (`notSentReason`).
 *
 * A process that is stopping (SIGTERM at a deploy) hands over nothing more, puts what it had claimed
 * but not handed over back to `recorded`, and records the outcome of what is with a provider now
 * before its database closes (Nest destroys this before the channels and the data source).
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly channels: Map<OutboxChannel, GuestChannel>;
  private stopping = false;
  /** The runs under way, which a shutdown waits for. */
  private readonly running = new Set<Promise<number>>();

  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly scheduler: JobScheduler,
    private readonly board: BoardEventWriter,
    private readonly config: AppConfig,
    private readonly repo: OutboxRelayRepository,
    private readonly metrics: Metrics,
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

  /**
   * Before the database closes: no new run or hand-over, and the runs under way finish recording
   * what their providers took (each hand-over is answered within the provider's 10 s timeout).
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.running]);
  }

  /** Sends what is recorded on the configured channels; answers how many the providers took. */
  async relay(): Promise<number> {
    if (this.channels.size === 0 || this.stopping) return 0;
    const run = this.relayOnce();
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  private async relayOnce(): Promise<number> {
    const channels = [...this.channels.keys()];
    const now = this.clock.now();
    const { claimed, gaveUp } = await this.tx.run(async ({ manager }) => {
      // The injected clock is the live venues' time; a sandbox's messages are held back whatever
      // their simulated stamps say.
      const maxAge = this.config.OUTBOX_MAX_AGE_MINUTES;
      const staleBefore = new Date(now.getTime() - maxAge * 60_000);
      const back = await this.repo.holdBack(manager, channels, now, staleBefore, maxAge);
      if (back.held > 0) this.logger.log(`${back.held} recorded messages held back (sandbox, ended offer or too old)`);
      return { claimed: await this.repo.claim(manager, channels, BATCH, now), gaveUp: back.gaveUp };
    });
    // Refused until it was too late to send: failed, and the party's row on the boards says so. Each
    // in a transaction of its own: a board event locks its venue's row, which a command holds while
    // it changes that party's messages, and the claim above holds message rows.
    for (const m of gaveUp) {
      await this.tx.run((tx) => this.announceFailure(tx, m, now));
      this.metrics.guestMessages.inc({ channel: m.channel, outcome: 'failed' });
    }
    // One lane per recipient, in the order recorded (a Map keeps the first-seen order).
    const lanes = new Map<string, Claimed[]>();
    for (const m of claimed) {
      const key = `${m.channel} ${m.to_address}`;
      const lane = lanes.get(key);
      if (lane) lane.push(m);
      else lanes.set(key, [m]);
    }
    const waiting = [...lanes.values()];
    let sent = 0;
    const serve = async (): Promise<void> => {
      for (let lane = waiting.shift(); lane; lane = waiting.shift()) {
        // Not `sent += await …`: that reads `sent` before the await, and the lanes run side by side.
        const took = await this.sendInOrder(lane);
        sent += took;
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECIPIENTS_AT_ONCE, waiting.length) }, serve));
    return sent;
  }

  /** One recipient's messages, one after another; answers how many the provider took. */
  private async sendInOrder(lane: Claimed[]): Promise<number> {
    let sent = 0;
    for (const [i, m] of lane.entries()) {
      if (this.stopping) {
        // Claimed, not handed over: `recorded` again, for the next worker (not left `sending`).
        await this.tx.run(({ manager }) =>
          this.repo.release(
            manager,
            lane.slice(i).map((later) => later.id),
          ),
        );
        return sent;
      }
      const channel = this.channels.get(m.channel);
      try {
        if (!channel) throw new Error(`no provider for ${m.channel}`);
        await channel.send({ id: m.id, to: m.to_address, subject: m.subject, body: m.body });
        const at = this.clock.now();
        await this.tx.run(({ manager }) => this.repo.sent(manager, m.id, at));
        sent++;
        this.metrics.guestMessages.inc({ channel: m.channel, outcome: 'sent' });
        this.metrics.guestMessageDelay.observe(
          { channel: m.channel },
          Math.max(0, (at.getTime() - m.created_at.getTime()) / 1000),
        );
      } catch (err) {
        const reason = (err as Error).message || 'the provider refused it';
        const backoff = RETRY_BACKOFF_MS[m.attempts];
        if (err instanceof ProviderError && err.retryable && backoff !== undefined) {
          this.logger.warn(`${m.channel} ${m.id} not taken, tried again in ${backoff / 1000} s: ${reason}`);
          const retryAt = new Date(this.clock.now().getTime() + backoff);
          // The recipient's later messages wait for it (the claim skips them while it waits).
          await this.tx.run(async ({ manager }) => {
            await this.repo.retryLater(manager, m.id, reason, retryAt);
            await this.repo.release(
              manager,
              lane.slice(i + 1).map((later) => later.id),
            );
          });
          this.metrics.guestMessages.inc({ channel: m.channel, outcome: 'retrying' });
          return sent;
        }
        this.logger.warn(`${m.channel} ${m.id} failed: ${reason}`);
        await this.failed(m, reason);
        this.metrics.guestMessages.inc({ channel: m.channel, outcome: 'failed' });
      }
    }
    return sent;
  }

  /** Failed, with the provider's reason; the boards hear of it, since the party's row shows its reach. */
  private async failed(m: Claimed, reason: string): Promise<void> {
    await this.tx.run(async (tx) => {
      await this.repo.failed(tx.manager, m.id, reason);
      await this.announceFailure(tx, m, this.clock.now());
    });
  }

  /** Tells the boards that a message to a queue party failed (its row then reads "not reached"). */
  private async announceFailure(tx: Tx, m: GaveUp, at: Date): Promise<void> {
    if (m.entry_id)
      await this.board.append(tx, m.venue_id, 'message.failed', { messageId: m.id, entryId: m.entry_id, channel: m.channel }, at);
  }
}
