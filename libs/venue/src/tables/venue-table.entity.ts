import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';

/** A table of a restaurant venue: a label the floor knows it by, and how many it seats. */
@Entity({ name: 'venue_tables' })
@Index('venue_tables_label_key', ['venueId', 'label'], { unique: true })
// Named with venue_id by a reservation's placements, so they stay in their table's venue (migration CrossVenueKeys).
@Unique('venue_tables_id_venue_key', ['id', 'venueId'])
@Check('venue_tables_capacity_check', `"capacity" BETWEEN 1 AND 200`)
export class VenueTable {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ type: 'text' })
  label: string;

  @Column({ type: 'int' })
  capacity: number;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  /** Where the table stands on the floor plan, in percent of the plan's width and height (null: not placed). */
  @Column({ name: 'pos_x', type: 'int', nullable: true })
  posX?: number | null;

  @Column({ name: 'pos_y', type: 'int', nullable: true })
  posY?: number | null;

  /** A retired table keeps its history but is no longer offered, booked or shown on the floor. */
  @Column({ name: 'retired_at', type: 'timestamptz', precision: 6, nullable: true })
  retiredAt?: Date | null;
}
