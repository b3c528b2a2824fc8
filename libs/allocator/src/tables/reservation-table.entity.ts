import { Column, Entity, Exclusion, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A table a reservation occupies for its time slot. Invariant 2: no table carries two active
 * reservations whose slots overlap, refused by the database itself (btree_gist exclusion). `active`
 * is kept by a trigger from the reservation's state (HELD, CONFIRMED or SEATED), never by code.
 * So is `holding` (CONFIRMED or SEATED; migration HoldingTurnStart), which no code reads or writes but
 * EndedDayTables.factsRead's SQL, through its index (venue, turn start): not mapped here.
 */
@Entity({ name: 'reservation_tables' })
@Index('reservation_tables_table_idx', ['tableId'])
@Exclusion('reservation_tables_no_overlap', `USING gist ("table_id" WITH =, "slot" WITH &&) WHERE ("active")`)
export class ReservationTable {
  @ForeignKey('reservations', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'reservation_id', type: 'uuid' })
  reservationId: string;

  @ForeignKey('venue_tables', { onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;

  @ForeignKey('venues', { onDelete: 'CASCADE' })
  @Column({ name: 'venue_id', type: 'uuid' })
  venueId: string;

  /** `[start, end)` of the turn. */
  @Column({ type: 'tstzrange' })
  slot: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;
}
