import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Worksheet section 1's decisions (free text), recorded with the venue; nullable, so additive. */
export class AddVenueDecisions1796190448932 implements MigrationInterface {
  name = 'AddVenueDecisions1796190448932';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" ADD "decisions" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "decisions"`);
  }
}
