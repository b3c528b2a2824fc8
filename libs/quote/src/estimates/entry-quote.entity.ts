import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { QuoteModel } from '@hostboard/venue';

/**
 * Both estimates a party was given a choice between at join, with the inputs each used: `turns`
 * (the spec's formula) and `floor` (the floor-aware model). `model` is the one the party was told
 * (the venue's policy.quoteModel at that moment). Written once, with the entry; never changed.
 */
@Entity({ name: 'entry_quotes' })
@Index('entry_quotes_venue_date_idx', ['venueId', 'businessDate'])
@Check('entry_quotes_model_check', `"model" IN ('turns', 'floor')`)
// Its entry's venue, by the database (migration CrossVenueKeys).
@ForeignKey('queue_entries', ['entryId', 'venueId'], ['id', 'venueId'], {
  name: 'entry_quotes_entry_same_venue',
  onDelete: 'CASCADE',
})
export class EntryQuote {
  @PrimaryColumn({ name: 'entry_id', type: 'uuid' })
  entryId: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'business_date', type: 'date' })
  businessDate: string;

  @Column({ type: 'text' })
  model: QuoteModel;

  @Column({ name: 'turns_minutes', type: 'int', nullable: true })
  turnsMinutes: number | null;

  @Column({ name: 'turns_inputs', type: 'jsonb' })
  turnsInputs: Record<string, unknown>;

  @Column({ name: 'floor_minutes', type: 'int', nullable: true })
  floorMinutes: number | null;

  @Column({ name: 'floor_inputs', type: 'jsonb' })
  floorInputs: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;
}
