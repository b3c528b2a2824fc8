import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A party's session, opened by exchanging its queue token once; it opens that one entry only. */
@Entity({ name: 'queue_sessions' })
@Index('queue_sessions_entry_idx', ['entryId'])
// Its entry's venue, by the database (migration CrossVenueKeys).
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], {
  name: 'queue_sessions_entry_same_venue',
  onDelete: 'CASCADE',
})
export class QueueSession {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'entry_id', type: 'uuid' })
  entryId: string;

  /** SHA-256 of the session secret; the secret is shown once, in the exchange answer. */
  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 6 })
  expiresAt: Date;

  /** Set when staff replace the entry's token: whoever held the old one loses the session too. */
  @Column({ name: 'ended_at', type: 'timestamptz', precision: 6, nullable: true })
  endedAt: Date | null;
}
