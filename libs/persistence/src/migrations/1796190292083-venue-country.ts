import type { MigrationInterface, QueryRunner } from 'typeorm';

export class VenueCountry1796190292083 implements MigrationInterface {
  name = 'VenueCountry1796190292083';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" ADD "country" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "country"`);
  }
}
