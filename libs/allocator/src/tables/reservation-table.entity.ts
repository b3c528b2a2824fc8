import { Column, Entity, Exclusion, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A table a reservation occupies for its time slot. Invariant 2: no table carries two active
 * reservations whose slots overlap, refused by the database itself (btree_gist exclusion). `active`
 * is kept by a trigger from the reservation's state (HELD, CONFIRMED or SEATED), never by code.
 * So is `holding` (CONFIRMED or SEATED; migration HoldingTurnStart), which only EndedDayTables.factsRead's
 * SQL reads, through its index of holding placements by venue and turn start (an expression index,
 * which TypeORM cannot state: declared here unsynchronized, so the schema check neither adds nor drops it).
 */
@Entity({ name: 'reservation_tables' })
// `venue_id` is its reservation's venue and its table's venue, by the database (migration
// CrossVenueKeys): the holding index below is searched by venue, so a placement filed under another
// venue would hide a kept table from its own venue's floor and show it on another's.
@ForeignKey('reservations', ['reservationId', 'venueId'], ['id', 'venueId'], {
  name: 'reservation_tables_reservation_same_venue',
  onDelete: 'CASCADE',
})
@ForeignKey('venue_tables', ['tableId', 'venueId'], ['id', 'venueId'], {
  name: 'reservation_tables_table_same_venue',
  onDelete: 'CASCADE',
})
@Index('reservation_tables_table_idx', ['tableId'])
@Index('reservation_tables_holding_start_idx', { synchronize: false })
@Exclusion('reservation_tables_no_overlap', `USING gist ("table_id" WITH =, "slot" WITH &&) WHERE ("active")`)
export class ReservationTable {
  @PrimaryColumn({ name: 'reservation_id', type: 'uuid' })
  reservationId: string;

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

  /** Kept by the database's triggers, as `active` is: never inserted, updated or selected by code. */
  @Column({ type: 'boolean', default: false, insert: false, update: false, select: false })
  holding?: boolean;
}
