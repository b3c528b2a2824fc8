import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';

export type EntryStatus = 'waiting' | 'offered' | 'confirmed' | 'seated' | 'cancelled' | 'expired';
export const ACTIVE_STATUSES: EntryStatus[] = ['waiting', 'offered'];

/**
 * A party in a venue's queue. Waiting order is (received_at, queue_sequence); both are set once
 * when the entry is saved and never change, so an expired offer that keeps the place keeps it exactly.
 */
@Entity({ name: 'queue_entries' })
@Index('queue_entries_sequence_key', ['venueId', 'queueSequence'], { unique: true })
@Index('queue_entries_active_order_idx', ['venueId', 'receivedAt', 'queueSequence'], {
  where: `"status" IN ('waiting', 'offered')`,
})
// "Is any party still waiting from an earlier business day?" is asked before every offer, accept and
// board read (the sweep's lock-free read) and inside every join: one probe here, where it was a scan
// of every waiting entry of the venue (1.4 ms of PostgreSQL per call at 1,000 waiting; issue 18).
@Index('queue_entries_waiting_date_idx', ['venueId', 'businessDate'], { where: `"status" = 'waiting'` })
// Invariant 4: one active entry per contact per venue and business day, where the policy asks for it
// (contact_key is null otherwise). Holds under racing joins because the database refuses the second.
@Index('queue_entries_one_active_per_contact', ['venueId', 'businessDate', 'contactKey'], {
  unique: true,
  where: `"status" IN ('waiting', 'offered') AND "contact_key" IS NOT NULL`,
})
// Named with venue_id by the rows of an entry (offers, reservations, tokens, sessions, quotes), so the
// database keeps each of them in its entry's venue (migration CrossVenueKeys).
@Unique('queue_entries_id_venue_key', ['id', 'venueId'])
@Check('queue_entries_status_check', `"status" IN ('waiting', 'offered', 'confirmed', 'seated', 'cancelled', 'expired')`)
@Check('queue_entries_party_size_check', `"party_size" BETWEEN 1 AND 100000`)
export class QueueEntry {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'party_size', type: 'int' })
  partySize: number;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  /** The normalised contact the duplicate rule compares; null where the policy allows repeats. */
  @Column({ name: 'contact_key', type: 'text', nullable: true })
  contactKey: string | null;

  @Column({ type: 'text' })
  status: EntryStatus;

  @Column({ name: 'received_at', type: 'timestamptz', precision: 6 })
  receivedAt: Date;

  @Column({ name: 'queue_sequence', type: 'bigint' })
  queueSequence: string;

  /** Venue-local date of the service the party joined (the day a past-midnight window started). */
  @Column({ name: 'business_date', type: 'date' })
  businessDate: string;

  /** Bumps on every change; a command carrying an older one is refused as stale. */
  @Column({ type: 'int', default: 1 })
  version: number;

  @Column({ name: 'quoted_position', type: 'int', nullable: true })
  quotedPosition: number | null;

  @Column({ name: 'quoted_wait_minutes', type: 'int', nullable: true })
  quotedWaitMinutes: number | null;

  @Column({ name: 'quoted_at', type: 'timestamptz', precision: 6, nullable: true })
  quotedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  /** Staff-only: a short note about the party (never shown to the party or sent to it). */
  @Column({ name: 'staff_note', type: 'text', nullable: true })
  staffNote?: string | null;

  /** Staff-only tags (high chair, wheelchair, VIP, allergy). */
  @Column({ name: 'staff_tags', type: 'text', array: true, default: () => "'{}'" })
  staffTags?: string[];
}
