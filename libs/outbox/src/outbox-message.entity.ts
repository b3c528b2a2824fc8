import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type OutboxStatus = 'recorded' | 'sending' | 'sent' | 'failed';

/** A guest email, written in the transaction of the change it reports; relayed later, at most once. */
@Entity({ name: 'outbox_messages' })
@Index('outbox_messages_venue_idx', ['venueId', 'createdAt'])
@Index('outbox_messages_pending_idx', ['createdAt'], { where: `"status" = 'recorded'` })
@Check('outbox_messages_status_check', `"status" IN ('recorded', 'sending', 'sent', 'failed')`)
export class OutboxMessage {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'to_address', type: 'text' })
  to: string;

  @Column({ type: 'text' })
  template: string;

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

  @Column({ name: 'sent_at', type: 'timestamptz', precision: 6, nullable: true })
  sentAt: Date | null;
}
