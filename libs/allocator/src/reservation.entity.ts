import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';

export type ReservationState = 'HELD' | 'CONFIRMED' | 'SEATED' | 'COMPLETED' | 'CANCELLED' | 'EXPIRED';
/**
 * Why a business day's leftovers ended: a queue entry still waiting when its day ended, and a
 * booking still holding tables once the next business day's service runs (its `state_reason`, and
 * the history's reason). A visit closed so was never cleared by the host: its length is not a turn.
 */
export const BUSINESS_DAY_ENDED = 'business day ended';

/** States that occupy seats or tables. */
export const ACTIVE_RESERVATION_STATES: ReservationState[] = ['HELD', 'CONFIRMED', 'SEATED'];

/**
 * Seats or tables set aside for a party: a hold (HELD, with an expiry) or a booking (CONFIRMED).
 * Accepting a hold changes this same row's state; nothing else is ever created for it.
 */
@Entity({ name: 'reservations' })
@Index('reservations_venue_state_idx', ['venueId', 'state'])
@Index('reservations_entry_idx', ['entryId'])
@Index('reservations_venue_created_idx', ['venueId', 'createdAt'])
// The safety sweep's "which venues still have tables held by a confirmed or seated party" (EndedDayTables).
@Index('reservations_holding_tables_idx', ['venueId'], { where: `"state" IN ('CONFIRMED', 'SEATED') AND "kind" = 'tables'` })
// What the rows of a reservation (its placements, visit and offer) name together with their venue_id,
// so the database keeps each of them in its reservation's venue (migration CrossVenueKeys).
@Unique('reservations_id_venue_key', ['id', 'venueId'])
// Its entry is of its own venue. The migration states the delete as SET NULL ("entry_id"): an entry's
// removal clears the reference and keeps venue_id; TypeORM cannot state the column list (it reads the
// action alone, so the schema check agrees), and a plain SET NULL would fail on the NOT NULL venue_id.
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], {
  name: 'reservations_entry_same_venue',
  onDelete: 'SET NULL',
})
@Check('reservations_state_check', `"state" IN ('HELD', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'EXPIRED')`)
@Check('reservations_held_expiry_check', `"state" <> 'HELD' OR "hold_expires_at" IS NOT NULL`)
@Check('reservations_kind_check', `"kind" IN ('pool', 'tables')`)
@Check('reservations_party_size_check', `"party_size" >= 1`)
export class Reservation {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'entry_id', type: 'uuid', nullable: true })
  entryId: string | null;

  /** `pool`: counts people against the venue's capacity; `tables`: occupies reservation_tables rows. */
  @Column({ type: 'text' })
  kind: 'pool' | 'tables';

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'party_size', type: 'int' })
  partySize: number;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  @Column({ type: 'text' })
  state: ReservationState;

  @Column({ name: 'hold_expires_at', type: 'timestamptz', precision: 6, nullable: true })
  holdExpiresAt: Date | null;

  /** Why it reached its state (WAITLIST_OFFER_EXPIRED, a cancellation note). */
  @Column({ name: 'state_reason', type: 'text', nullable: true })
  stateReason: string | null;

  @Column({ name: 'terms_version', type: 'text', nullable: true })
  termsVersion: string | null;

  /** SHA-256 of the one-time booking link; the link itself is shown once. */
  @Column({ name: 'booking_link_hash', type: 'text', nullable: true, unique: true })
  bookingLinkHash: string | null;

  /** When the booking link was exchanged for a session; a link works once. */
  @Column({ name: 'booking_link_used_at', type: 'timestamptz', precision: 6, nullable: true })
  bookingLinkUsedAt?: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 6 })
  updatedAt: Date;

  /**
   * When it became CONFIRMED (an acceptance, or a booking made confirmed), written once: the time a
   * later change (a seating, a cancellation, a correction) writes to `updated_at` is not when it was
   * confirmed. Null for one never confirmed.
   */
  @Column({ name: 'confirmed_at', type: 'timestamptz', precision: 6, nullable: true })
  confirmedAt: Date | null;
}
