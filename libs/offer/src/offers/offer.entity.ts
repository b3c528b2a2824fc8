import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type OfferState = 'live' | 'accepted' | 'expired' | 'withdrawn' | 'cancelled';

/**
 * An offer of a held reservation to a queue entry, open until `expires_at` (exclusive).
 * Invariant 3: at most one live offer per entry (partial unique index); a reservation belongs to at
 * most one offer, ever (plain unique index). Its entry and its reservation are of its own venue, by
 * the database (migration CrossVenueKeys).
 */
@Entity({ name: 'offers' })
@Index('offers_one_live_per_entry', ['entryId'], { unique: true, where: `"state" = 'live'` })
@Index('offers_live_expiry_idx', ['venueId', 'expiresAt'], { where: `"state" = 'live'` })
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], { name: 'offers_entry_same_venue', onDelete: 'CASCADE' })
@ForeignKey('reservations', ['reservationId', 'venueId'], ['id', 'venueId'], {
  name: 'offers_reservation_same_venue',
  onDelete: 'CASCADE',
})
@Check('offers_state_check', `"state" IN ('live', 'accepted', 'expired', 'withdrawn', 'cancelled')`)
export class Offer {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'entry_id', type: 'uuid' })
  entryId: string;

  @Column({ name: 'reservation_id', type: 'uuid', unique: true })
  reservationId: string;

  @Column({ type: 'text' })
  state: OfferState;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 6 })
  expiresAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', precision: 6, nullable: true })
  resolvedAt: Date | null;
}
