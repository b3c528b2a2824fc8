import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A party's one-time queue token. Only the SHA-256 of the secret is kept; the secret is shown once,
 * in the join answer (or the replacement answer). It opens a session once (`used_at`), until
 * `expires_at` (exclusive), unless staff replaced it (`replaced_at`). One open token per entry.
 */
@Entity({ name: 'queue_tokens' })
@Index('queue_tokens_one_open_per_entry', ['entryId'], { unique: true, where: `"used_at" IS NULL AND "replaced_at" IS NULL` })
// Its entry's venue, by the database (migration CrossVenueKeys).
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], {
  name: 'queue_tokens_entry_same_venue',
  onDelete: 'CASCADE',
})
export class QueueToken {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'entry_id', type: 'uuid' })
  entryId: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 6 })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', precision: 6, nullable: true })
  usedAt: Date | null;

  @Column({ name: 'replaced_at', type: 'timestamptz', precision: 6, nullable: true })
  replacedAt: Date | null;
}
