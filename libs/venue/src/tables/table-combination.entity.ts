import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';

/**
 * An approved combination of 2–4 tables of one venue, with the capacity they seat together. Its
 * tables are rows of table_combination_tables; `table_key` (the sorted table ids) makes the same set
 * of tables approvable only once per venue.
 */
@Entity({ name: 'table_combinations' })
@Index('table_combinations_tables_key', ['venueId', 'tableKey'], { unique: true })
// Named with venue_id by its member tables, so they stay in its venue (migration CombinationOutboxVenueKeys).
@Unique('table_combinations_id_venue_key', ['id', 'venueId'])
@Check('table_combinations_capacity_check', `"capacity" BETWEEN 1 AND 200`)
export class TableCombination {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  @Column({ type: 'int' })
  capacity: number;

  @Column({ name: 'table_key', type: 'text' })
  tableKey: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;
}
