import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A row that names a venue and another venue's row is refused by the database, not only avoided by
 * the code: each reference to a reservation, a queue entry or a table from a row that carries its own
 * venue_id becomes a foreign key on (reference, venue_id), to a UNIQUE (id, venue_id) of the parent.
 * The holding placements' index (HoldingTurnStart) and the venue's visits (the floor quote's turn
 * lengths) are read by venue_id alone, so a placement or a visit filed under another venue would be
 * counted there and missed here; an offer, a token, a session or a quote of another venue's entry
 * would open that entry to this venue's staff.
 *
 * Each composite key replaces the single-column key it extends (the same one check on insert, with the
 * same delete rule); the venue keys (venue_id → venues) stay. The new cost is one more index entry on
 * each new or updated reservation, queue entry and table (the parents' UNIQUE (id, venue_id)).
 *
 * A reservation's entry keeps ON DELETE SET NULL, now for entry_id alone (PostgreSQL 15's column
 * list): a plain SET NULL would also null the reservation's NOT NULL venue_id.
 *
 * A database that already holds a mismatched row stops here, naming the key and the row: such a row
 * is a bug to look at, not one to hide by rewriting it.
 */
export class CrossVenueKeys1796523400000 implements MigrationInterface {
  name = 'CrossVenueKeys1796523400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, constraint] of PARENTS) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${constraint}" UNIQUE ("id", "venue_id")`);
    }
    for (const key of KEYS) {
      await queryRunner.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.old}"`);
      await queryRunner.query(
        `ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" FOREIGN KEY ("${key.column}", "venue_id") REFERENCES "${key.parent}"("id", "venue_id") ON DELETE ${key.onDelete === 'SET NULL' ? `SET NULL ("${key.column}")` : key.onDelete} ON UPDATE NO ACTION`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const key of [...KEYS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}"`);
      await queryRunner.query(
        `ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.old}" FOREIGN KEY ("${key.column}") REFERENCES "${key.parent}"("id") ON DELETE ${key.onDelete} ON UPDATE NO ACTION`,
      );
    }
    for (const [table, constraint] of [...PARENTS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${constraint}"`);
    }
  }
}

/** The parents' keys the composite references name. */
const PARENTS: Array<[table: string, constraint: string]> = [
  ['reservations', 'reservations_id_venue_key'],
  ['queue_entries', 'queue_entries_id_venue_key'],
  ['venue_tables', 'venue_tables_id_venue_key'],
];

/** Each single-column reference (its TypeORM name, `old`) and the composite one that replaces it. */
const KEYS: Array<{
  table: string;
  column: string;
  parent: string;
  old: string;
  name: string;
  onDelete: 'CASCADE' | 'SET NULL';
}> = [
  {
    table: 'reservation_tables',
    column: 'reservation_id',
    parent: 'reservations',
    old: 'FK_42b25dfe200c194d3ff52a11b43',
    name: 'reservation_tables_reservation_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'reservation_tables',
    column: 'table_id',
    parent: 'venue_tables',
    old: 'FK_f6bef828da716ddc01cca3c4705',
    name: 'reservation_tables_table_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'visits',
    column: 'reservation_id',
    parent: 'reservations',
    old: 'FK_e9f8a2130a24715159ffba38fe6',
    name: 'visits_reservation_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'offers',
    column: 'reservation_id',
    parent: 'reservations',
    old: 'FK_fa64113ed84de9eb3b289f7671a',
    name: 'offers_reservation_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'offers',
    column: 'entry_id',
    parent: 'queue_entries',
    old: 'FK_47ee60f64eaa077620357d05090',
    name: 'offers_entry_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'reservations',
    column: 'entry_id',
    parent: 'queue_entries',
    old: 'FK_7a122b839de2c6d0b740a3909df',
    name: 'reservations_entry_same_venue',
    onDelete: 'SET NULL',
  },
  {
    table: 'queue_tokens',
    column: 'entry_id',
    parent: 'queue_entries',
    old: 'FK_6ee8044eb70185f74d07804c14d',
    name: 'queue_tokens_entry_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'queue_sessions',
    column: 'entry_id',
    parent: 'queue_entries',
    old: 'FK_01873f391aedd1c71a8910c994c',
    name: 'queue_sessions_entry_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'entry_quotes',
    column: 'entry_id',
    parent: 'queue_entries',
    old: 'FK_0b2b5ca8481ee50d912e53548cb',
    name: 'entry_quotes_entry_same_venue',
    onDelete: 'CASCADE',
  },
];
