import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TableReservations1796156249353 implements MigrationInterface {
  name = 'TableReservations1796156249353';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reservation_tables" ("reservation_id" uuid NOT NULL, "table_id" uuid NOT NULL, "venue_id" uuid NOT NULL, "slot" tstzrange NOT NULL, "active" boolean NOT NULL DEFAULT true, CONSTRAINT "reservation_tables_no_overlap" EXCLUDE USING gist ("table_id" WITH =, "slot" WITH &&) WHERE ("active"), CONSTRAINT "PK_67551b7481a3874a319ea5a91eb" PRIMARY KEY ("reservation_id", "table_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "reservation_tables_table_idx" ON "reservation_tables"  ("table_id") `);
    await queryRunner.query(
      `CREATE TABLE "visits" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "reservation_id" uuid NOT NULL, "opened_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "closed_at" TIMESTAMP(6) WITH TIME ZONE, CONSTRAINT "PK_0b0b322289a41015c6ea4e8bf30" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "visits_one_open_per_reservation" ON "visits"  ("reservation_id") WHERE "closed_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "booking_sessions" ("id" uuid NOT NULL, "reservation_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_32f34a5dfb3843a8f1a9d89596a" UNIQUE ("token_hash"), CONSTRAINT "PK_dfd367a1fe8ca014f0f2d1d9488" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "booking_sessions_reservation_idx" ON "booking_sessions"  ("reservation_id") `);
    await queryRunner.query(`ALTER TABLE "reservations" ADD "booking_link_used_at" TIMESTAMP(6) WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "reservation_tables" ADD CONSTRAINT "FK_42b25dfe200c194d3ff52a11b43" FOREIGN KEY ("reservation_id") REFERENCES "reservations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reservation_tables" ADD CONSTRAINT "FK_f6bef828da716ddc01cca3c4705" FOREIGN KEY ("table_id") REFERENCES "venue_tables"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reservation_tables" ADD CONSTRAINT "FK_39f5b9d4ae54875691a1d45976b" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "visits" ADD CONSTRAINT "FK_9da3c4401f3d8358f7929758480" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "visits" ADD CONSTRAINT "FK_e9f8a2130a24715159ffba38fe6" FOREIGN KEY ("reservation_id") REFERENCES "reservations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "booking_sessions" ADD CONSTRAINT "FK_65a3ed97777f4952554da59e9e9" FOREIGN KEY ("reservation_id") REFERENCES "reservations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // A table is taken only while its reservation is HELD, CONFIRMED or SEATED: the database keeps
    // reservation_tables.active in step with the reservation, so no code path can leave it wrong.
    await queryRunner.query(`CREATE FUNCTION reservation_tables_follow_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reservation_tables SET active = NEW.state IN ('HELD', 'CONFIRMED', 'SEATED')
   WHERE reservation_id = NEW.id AND active IS DISTINCT FROM (NEW.state IN ('HELD', 'CONFIRMED', 'SEATED'));
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER reservation_tables_follow_state AFTER UPDATE OF state ON "reservations" FOR EACH ROW EXECUTE FUNCTION reservation_tables_follow_state()`,
    );
    // New table rows of an inactive reservation start inactive too.
    await queryRunner.query(`CREATE FUNCTION reservation_tables_initial_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.active := EXISTS (SELECT 1 FROM reservations r WHERE r.id = NEW.reservation_id AND r.state IN ('HELD', 'CONFIRMED', 'SEATED'));
  RETURN NEW;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER reservation_tables_initial_state BEFORE INSERT ON "reservation_tables" FOR EACH ROW EXECUTE FUNCTION reservation_tables_initial_state()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER reservation_tables_initial_state ON "reservation_tables"`);
    await queryRunner.query(`DROP FUNCTION reservation_tables_initial_state()`);
    await queryRunner.query(`DROP TRIGGER reservation_tables_follow_state ON "reservations"`);
    await queryRunner.query(`DROP FUNCTION reservation_tables_follow_state()`);
    await queryRunner.query(`ALTER TABLE "booking_sessions" DROP CONSTRAINT "FK_65a3ed97777f4952554da59e9e9"`);
    await queryRunner.query(`ALTER TABLE "visits" DROP CONSTRAINT "FK_e9f8a2130a24715159ffba38fe6"`);
    await queryRunner.query(`ALTER TABLE "visits" DROP CONSTRAINT "FK_9da3c4401f3d8358f7929758480"`);
    await queryRunner.query(`ALTER TABLE "reservation_tables" DROP CONSTRAINT "FK_39f5b9d4ae54875691a1d45976b"`);
    await queryRunner.query(`ALTER TABLE "reservation_tables" DROP CONSTRAINT "FK_f6bef828da716ddc01cca3c4705"`);
    await queryRunner.query(`ALTER TABLE "reservation_tables" DROP CONSTRAINT "FK_42b25dfe200c194d3ff52a11b43"`);
    await queryRunner.query(`ALTER TABLE "reservations" DROP COLUMN "booking_link_used_at"`);
    await queryRunner.query(`DROP INDEX "public"."booking_sessions_reservation_idx"`);
    await queryRunner.query(`DROP TABLE "booking_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."visits_one_open_per_reservation"`);
    await queryRunner.query(`DROP TABLE "visits"`);
    await queryRunner.query(`DROP INDEX "public"."reservation_tables_table_idx"`);
    await queryRunner.query(`DROP TABLE "reservation_tables"`);
  }
}
