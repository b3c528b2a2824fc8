import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type Preset = 'restaurant' | 'workshop';
export type Seating = 'tables' | 'pool';
export type OnOfferExpired = 'keep-place' | 'leave-queue';
export type QueueOrder = 'host-pick' | 'strict';
/** Which estimate a party is told: the spec's formula (`turns`) or the floor-aware model (`floor`). */
export type QuoteModel = 'turns' | 'floor';

/** Worksheet section 1's decisions that are not seat arithmetic; free text, recorded with the venue. */
export interface VenueDecisions {
  whoMayCancel?: string;
  retries?: string;
  discrepancyOwner?: string;
  ruleChanges?: string;
  reviewer?: string;
  reviewDate?: string;
}

/**
 * A venue and its policy. Its row is the lock every command of the venue takes first
 * (`SELECT … FOR UPDATE`), which serialises the venue's allocation decisions.
 */
@Entity({ name: 'venues' })
@Check('venues_preset_check', `"preset" IN ('restaurant', 'workshop')`)
@Check('venues_seating_check', `"seating" IN ('tables', 'pool')`)
@Check(
  'venues_pool_capacity_check',
  `("seating" = 'pool') = ("pool_capacity" IS NOT NULL) AND ("pool_capacity" IS NULL OR "pool_capacity" > 0)`,
)
@Check('venues_on_offer_expired_check', `"on_offer_expired" IN ('keep-place', 'leave-queue')`)
@Check('venues_order_check', `"queue_order" IN ('host-pick', 'strict')`)
@Check('venues_quote_model_check', `"quote_model" IN ('turns', 'floor')`)
@Check('venues_hold_seconds_check', `"hold_seconds" > 0`)
@Check('venues_party_cap_check', `"queue_party_cap" BETWEEN 1 AND 200`)
@Check('venues_sandbox_clock_check', `"sandbox" = ("clock_now" IS NOT NULL)`)
@Check(
  'venues_pool_counts_check',
  `"pool_confirmed" >= 0 AND "pool_held" >= 0 AND ("pool_capacity" IS NULL OR "pool_confirmed" + "pool_held" <= "pool_capacity")`,
)
export class Venue {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', unique: true })
  slug: string;

  @Column({ type: 'text' })
  name: string;

  /** IANA zone, e.g. America/Chicago; venue-local rules go through a time-zone library. */
  @Column({ name: 'time_zone', type: 'text' })
  timeZone: string;

  /**
   * ISO 3166-1 alpha-2, e.g. US: national phone numbers typed at this venue are read with it.
   * Defaulted from the time zone where the zone names one country; null where it names none (UTC).
   */
  @Column({ type: 'text', nullable: true })
  country: string | null;

  @Column({ type: 'text' })
  preset: Preset;

  @Column({ type: 'boolean', default: false })
  published: boolean;

  @Column({ name: 'queue_enabled', type: 'boolean', default: true })
  queueEnabled: boolean;

  @Column({ name: 'queue_party_cap', type: 'int', default: 8 })
  queuePartyCap: number;

  @Column({ name: 'terms_version', type: 'text', default: 'v1' })
  termsVersion: string;

  @Column({ type: 'text' })
  seating: Seating;

  @Column({ name: 'pool_capacity', type: 'int', nullable: true })
  poolCapacity: number | null;

  @Column({ name: 'hold_seconds', type: 'int' })
  holdSeconds: number;

  @Column({ name: 'on_offer_expired', type: 'text' })
  onOfferExpired: OnOfferExpired;

  @Column({ name: 'require_service_window', type: 'boolean' })
  requireServiceWindow: boolean;

  @Column({ name: 'one_entry_per_contact', type: 'boolean' })
  oneEntryPerContact: boolean;

  @Column({ name: 'queue_order', type: 'text' })
  queueOrder: QueueOrder;

  /** Both models are computed on every join; this one is what the party is told. */
  @Column({ name: 'quote_model', type: 'text', default: 'turns' })
  quoteModel: QuoteModel;

  @Column({ type: 'boolean', default: false })
  sandbox: boolean;

  /** The simulated clock of a sandbox venue; null for live venues (they read the system clock). */
  @Column({ name: 'clock_now', type: 'timestamptz', precision: 6, nullable: true })
  clockNow: Date | null;

  /**
   * People confirmed and held in the pool. Maintained by a trigger on reservations, never by code,
   * and bounded by the check above: confirmed + held + available = capacity, none negative (invariant 1).
   */
  @Column({ name: 'pool_confirmed', type: 'int', default: 0 })
  poolConfirmed: number;

  @Column({ name: 'pool_held', type: 'int', default: 0 })
  poolHeld: number;

  /** The last queue sequence given out at this venue; the next entry takes the next number. */
  @Column({ name: 'queue_sequence_last', type: 'bigint', default: 0 })
  queueSequenceLast: string;

  /** The board version: the number of the venue's last board event (no gaps). */
  @Column({ type: 'bigint', default: 0 })
  version: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Who may cancel, how retries are recognised, who owns discrepancies, rule changes, reviewer and date. */
  @Column({ type: 'jsonb', nullable: true })
  decisions: VenueDecisions | null;
}
