import type { MigrationInterface, QueryRunner } from 'typeorm';
import { countryOfZone } from '@hostboard/venue/venues/venue-country.js';

export class VenueCountry1796190292083 implements MigrationInterface {
  name = 'VenueCountry1796190292083';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" ADD "country" text`);
    // Existing venues get the country their zone names, as a new venue would (none for UTC).
    const zones = (await queryRunner.query(`SELECT DISTINCT time_zone FROM venues`)) as Array<{ time_zone: string }>;
    for (const { time_zone } of zones) {
      const country = countryOfZone(time_zone);
      if (country) await queryRunner.query(`UPDATE venues SET country = $1 WHERE time_zone = $2`, [country, time_zone]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "country"`);
  }
}
