import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rows CrossVenueKeys left out, now kept in their venue by the database too:
 *
 * - A combination's member tables (table_combination_tables) had no venue_id: a combination of one
 *   venue could list another venue's table, and seat a party at it through the combination's
 *   capacity (seatingCapacities, the allocator's options). The column is added, filled from the
 *   combination, and both references become composite: (combination_id, venue_id) to a new UNIQUE
 *   (id, venue_id) of table_combinations, (table_id, venue_id) to venue_tables' (CrossVenueKeys).
 *   Each replaces the single-column key it extends, with the same delete rule (CASCADE). No key
 *   venue_id → venues: the combination's key already names a row of that venue.
 * - A guest message (outbox_messages) named its entry and reservation with no key at all. Both
 *   become composite keys with its venue_id, ON DELETE SET NULL of the reference alone (a message
 *   stays on record if its party's row went; no code removes one, a venue's removal takes both).
 *   The messages list, the relay and the party's reach read messages by venue or by entry, so one
 *   filed under another venue would show a party's texts to the wrong venue's manager.
 *
 * History is left as it is: its subject is polymorphic (entry, offer, reservation, table,
 * combination, service window, venue), so no one key can name the parent; it outlives subjects that
 * are removed (a combination, a service window); and it is append-only (a trigger refuses UPDATE and
 * DELETE), so a key with a delete action could only block the parent's removal.
 *
 * A database that already holds a mismatched row (or a message naming a row that is gone) stops
 * here, naming the key: such a row is a bug to look at, not one to hide by rewriting it.
 */
export class CombinationOutboxVenueKeys1796523500000 implements MigrationInterface {
  name = 'CombinationOutboxVenueKeys1796523500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "table_combinations" ADD CONSTRAINT "table_combinations_id_venue_key" UNIQUE ("id", "venue_id")`,
    );
    await queryRunner.query(`ALTER TABLE "table_combination_tables" ADD "venue_id" uuid`);
    await queryRunner.query(
      `UPDATE "table_combination_tables" m SET "venue_id" = c."venue_id" FROM "table_combinations" c WHERE c."id" = m."combination_id"`,
    );
    await queryRunner.query(`ALTER TABLE "table_combination_tables" ALTER COLUMN "venue_id" SET NOT NULL`);
    for (const key of KEYS) {
      if (key.old) await queryRunner.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.old}"`);
      await queryRunner.query(
        `ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" FOREIGN KEY ("${key.column}", "venue_id") REFERENCES "${key.parent}"("id", "venue_id") ON DELETE ${key.onDelete === 'SET NULL' ? `SET NULL ("${key.column}")` : key.onDelete} ON UPDATE NO ACTION`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const key of [...KEYS].reverse()) {
      await queryRunner.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}"`);
      if (key.old)
        await queryRunner.query(
          `ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.old}" FOREIGN KEY ("${key.column}") REFERENCES "${key.parent}"("id") ON DELETE ${key.onDelete} ON UPDATE NO ACTION`,
        );
    }
    await queryRunner.query(`ALTER TABLE "table_combination_tables" DROP COLUMN "venue_id"`);
    await queryRunner.query(`ALTER TABLE "table_combinations" DROP CONSTRAINT "table_combinations_id_venue_key"`);
  }
}

/** Each composite reference, and the single-column TypeORM key it replaces (`old`; none for the messages'). */
const KEYS: Array<{
  table: string;
  column: string;
  parent: string;
  old: string | null;
  name: string;
  onDelete: 'CASCADE' | 'SET NULL';
}> = [
  {
    table: 'table_combination_tables',
    column: 'combination_id',
    parent: 'table_combinations',
    old: 'FK_72deacd8ad682b83a572f43b89b',
    name: 'table_combination_tables_combination_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'table_combination_tables',
    column: 'table_id',
    parent: 'venue_tables',
    old: 'FK_0d673a87f0ab70b809bc953b4a1',
    name: 'table_combination_tables_table_same_venue',
    onDelete: 'CASCADE',
  },
  {
    table: 'outbox_messages',
    column: 'entry_id',
    parent: 'queue_entries',
    old: null,
    name: 'outbox_messages_entry_same_venue',
    onDelete: 'SET NULL',
  },
  {
    table: 'outbox_messages',
    column: 'reservation_id',
    parent: 'reservations',
    old: null,
    name: 'outbox_messages_reservation_same_venue',
    onDelete: 'SET NULL',
  },
];
