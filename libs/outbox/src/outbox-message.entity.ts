import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type OutboxStatus = 'recorded' | 'sending' | 'sent' | 'failed';
export type OutboxChannel = 'email' | 'sms';

/**
 * A guest message (an email or a text), written in the transaction of the change it reports;
 * relayed later, at most once.
 */
@Entity({ name: 'outbox_messages' })
@Index('outbox_messages_venue_idx', ['venueId', 'createdAt'])
@Index('outbox_messages_entry_idx', ['entryId', 'createdAt'], { where: `"entry_id" IS NOT NULL` })
@Check('outbox_messages_channel_check', `"channel" IN ('email', 'sms')`)
@Index('outbox_messages_pending_idx', ['createdAt'], { where: `"status" = 'recorded' AND "not_sent_reason" IS NULL` })
@Check('outbox_messages_status_check', `"status" IN ('recorded', 'sending', 'sent', 'failed')`)
@Index('outbox_messages_sending_idx', ['channel', 'to'], { where: `"status" = 'sending'` })
// Its entry and reservation are of its own venue, by the database (migration CombinationOutboxVenueKeys).
// The migration states the delete as SET NULL of the reference alone ("entry_id", "reservation_id"):
// TypeORM cannot state the column list (it reads the action alone, so the schema check agrees), and a
// plain SET NULL would fail on the NOT NULL venue_id.
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], {
  name: 'outbox_messages_entry_same_venue',
  onDelete: 'SET NULL',
})
@ForeignKey('reservations', ['reservationId', 'venueId'], ['id', 'venueId'], {
  name: 'outbox_messages_reservation_same_venue',
  onDelete: 'SET NULL',
})
export class OutboxMessage {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  /** `email` (to an address) or `sms` (to an E.164 phone number). */
  @Column({ type: 'text', default: 'email' })
  channel: OutboxChannel;

  @Column({ name: 'to_address', type: 'text' })
  to: string;

  @Column({ type: 'text' })
  template: string;

  /** Empty for a text. */
  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'text', default: 'recorded' })
  status: OutboxStatus;

  @Column({ name: 'entry_id', type: 'uuid', nullable: true })
  entryId: string | null;

  @Column({ name: 'reservation_id', type: 'uuid', nullable: true })
  reservationId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  /**
   * Why the provider refused it, in the provider's words: status `failed`, or `recorded` while it
   * waits to be tried again (`retry_at`).
   */
  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  /**
   * Why the relay will never hand this `recorded` message to a provider (a sandbox venue's, a
   * table-ready whose offer had ended, too old); null while it may still be sent.
   */
  @Column({ name: 'not_sent_reason', type: 'text', nullable: true })
  notSentReason: string | null;

  /** Hand-overs the provider refused. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** After such a refusal: not claimed again before this instant (the backoff). */
  @Column({ name: 'retry_at', type: 'timestamptz', precision: 6, nullable: true })
  retryAt: Date | null;

  @Column({ name: 'sent_at', type: 'timestamptz', precision: 6, nullable: true })
  sentAt: Date | null;

  /**
   * When a relay last claimed it (`sending`): while that is recent, the recipient's later messages
   * wait for it; one left `sending` by a relay that died stops holding them back after a while.
   */
  @Column({ name: 'claimed_at', type: 'timestamptz', precision: 6, nullable: true })
  claimedAt: Date | null;
}
