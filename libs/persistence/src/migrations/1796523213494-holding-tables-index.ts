import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The venues whose tables a confirmed or seated party still holds, for the safety sweep's look for
 * tables an earlier business day left held (EndedDayTables): a partial index of the few live
 * bookings, where the reservations of every night ever are many.
 */
export class HoldingTablesIndex1796523213494 implements MigrationInterface {
  name = 'HoldingTablesIndex1796523213494';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "reservations_holding_tables_idx" ON "reservations"  ("venue_id") WHERE "state" IN ('CONFIRMED', 'SEATED') AND "kind" = 'tables'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."reservations_holding_tables_idx"`);
  }
}
