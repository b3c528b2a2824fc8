import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WaitingDateIndex1796319033226 implements MigrationInterface {
  name = 'WaitingDateIndex1796319033226';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "queue_entries_waiting_date_idx" ON "queue_entries"  ("venue_id", "business_date") WHERE "status" = 'waiting'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."queue_entries_waiting_date_idx"`);
  }
}
