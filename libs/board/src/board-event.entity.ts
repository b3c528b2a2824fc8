import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * One committed change of a venue, numbered by the venue's board version with no gaps. A board that
 * reconnects asks for everything after the last version it saw.
 */
@Entity({ name: 'board_events' })
export class BoardEvent {
  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @PrimaryColumn({ type: 'bigint' })
  version: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'jsonb' })
  data: object;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;
}
