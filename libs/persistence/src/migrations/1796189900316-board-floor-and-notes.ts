import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BoardFloorAndNotes1796189900316 implements MigrationInterface {
  name = 'BoardFloorAndNotes1796189900316';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venue_tables" ADD "pos_x" integer`);
    await queryRunner.query(`ALTER TABLE "venue_tables" ADD "pos_y" integer`);
    await queryRunner.query(`ALTER TABLE "venue_tables" ADD "retired_at" TIMESTAMP(6) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "queue_entries" ADD "staff_note" text`);
    await queryRunner.query(`ALTER TABLE "queue_entries" ADD "staff_tags" text array NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "queue_entries" DROP COLUMN "staff_tags"`);
    await queryRunner.query(`ALTER TABLE "queue_entries" DROP COLUMN "staff_note"`);
    await queryRunner.query(`ALTER TABLE "venue_tables" DROP COLUMN "retired_at"`);
    await queryRunner.query(`ALTER TABLE "venue_tables" DROP COLUMN "pos_y"`);
    await queryRunner.query(`ALTER TABLE "venue_tables" DROP COLUMN "pos_x"`);
  }
}
