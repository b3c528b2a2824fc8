import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One table of an approved combination. */
@Entity({ name: 'table_combination_tables' })
@Index('table_combination_tables_table_idx', ['tableId'])
export class TableCombinationTable {
  @ForeignKey('table_combinations', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'combination_id', type: 'uuid' })
  combinationId: string;

  @ForeignKey('venue_tables', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;
}
