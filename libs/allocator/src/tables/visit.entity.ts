import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A party physically at its tables: opened when seated, closed when the tables are cleared. */
@Entity({ name: 'visits' })
@Index('visits_one_open_per_reservation', ['reservationId'], { unique: true, where: `"closed_at" IS NULL` })
// The floor-aware quote learns turn lengths from a venue's recent completed visits on every join.
@Index('visits_venue_closed_idx', ['venueId', 'closedAt'])
// Its reservation's venue, by the database (migration CrossVenueKeys): that learning reads by venue.
@ForeignKey('reservations', ['reservationId', 'venueId'], ['id', 'venueId'], {
  name: 'visits_reservation_same_venue',
  onDelete: 'CASCADE',
})
export class Visit {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ name: 'reservation_id', type: 'uuid' })
  reservationId: string;

  @Column({ name: 'opened_at', type: 'timestamptz', precision: 6 })
  openedAt: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', precision: 6, nullable: true })
  closedAt: Date | null;
}
