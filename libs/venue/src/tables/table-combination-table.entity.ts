import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * One table of an approved combination. Its combination and its table are of its own venue, by the
 * database (migration CombinationOutboxVenueKeys): a combination cannot list another venue's table.
 */
@Entity({ name: 'table_combination_tables' })
@Index('table_combination_tables_table_idx', ['tableId'])
@ForeignKey('table_combinations', ['combinationId', 'venueId'], ['id', 'venueId'], {
  name: 'table_combination_tables_combination_same_venue',
  onDelete: 'CASCADE',
})
@ForeignKey('venue_tables', ['tableId', 'venueId'], ['id', 'venueId'], {
  name: 'table_combination_tables_table_same_venue',
  onDelete: 'CASCADE',
})
export class TableCombinationTable {
  @PrimaryColumn({ name: 'combination_id', type: 'uuid' })
  combinationId: string;

  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;

  /** The combination's venue (no key of its own to venues: the combination's key names a row of it). */
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;
}
