import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Both wait estimates of every join (the spec's formula and the floor-aware model), the venue's choice
 * between them, and an index for reading a venue's recent completed visits (the learned turn lengths).
 */
export class EntryQuotes1796190155236 implements MigrationInterface {
  name = 'EntryQuotes1796190155236';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "entry_quotes" ("entry_id" uuid NOT NULL, "venue_id" uuid NOT NULL, "business_date" date NOT NULL, "model" text NOT NULL, "turns_minutes" integer, "turns_inputs" jsonb NOT NULL, "floor_minutes" integer, "floor_inputs" jsonb NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "entry_quotes_model_check" CHECK ("model" IN ('turns', 'floor')), CONSTRAINT "PK_0b2b5ca8481ee50d912e53548cb" PRIMARY KEY ("entry_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "entry_quotes_venue_date_idx" ON "entry_quotes"  ("venue_id", "business_date") `);
    await queryRunner.query(`CREATE INDEX "visits_venue_closed_idx" ON "visits" ("venue_id", "closed_at") `);
    await queryRunner.query(`ALTER TABLE "venues" ADD "quote_model" text NOT NULL DEFAULT 'turns'`);
    await queryRunner.query(
      `ALTER TABLE "venues" ADD CONSTRAINT "venues_quote_model_check" CHECK ("quote_model" IN ('turns', 'floor'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "entry_quotes" ADD CONSTRAINT "FK_0b2b5ca8481ee50d912e53548cb" FOREIGN KEY ("entry_id") REFERENCES "queue_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entry_quotes" ADD CONSTRAINT "FK_e8277ea201bf2bd3fbbecd0c179" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entry_quotes" DROP CONSTRAINT "FK_e8277ea201bf2bd3fbbecd0c179"`);
    await queryRunner.query(`ALTER TABLE "entry_quotes" DROP CONSTRAINT "FK_0b2b5ca8481ee50d912e53548cb"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP CONSTRAINT "venues_quote_model_check"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "quote_model"`);
    await queryRunner.query(`DROP INDEX "public"."visits_venue_closed_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entry_quotes_venue_date_idx"`);
    await queryRunner.query(`DROP TABLE "entry_quotes"`);
  }
}
