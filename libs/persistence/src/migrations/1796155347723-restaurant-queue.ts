import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RestaurantQueue1796155347723 implements MigrationInterface {
  name = 'RestaurantQueue1796155347723';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "venue_tables" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "label" text NOT NULL, "capacity" integer NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "venue_tables_capacity_check" CHECK ("capacity" BETWEEN 1 AND 200), CONSTRAINT "PK_6b5ca0ab2b9cba8cd9d1da368e5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "venue_tables_label_key" ON "venue_tables"  ("venue_id", "label") `);
    await queryRunner.query(
      `CREATE TABLE "table_combinations" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "capacity" integer NOT NULL, "table_key" text NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "table_combinations_capacity_check" CHECK ("capacity" BETWEEN 1 AND 200), CONSTRAINT "PK_f91a53ddcff1d9582756cc5f5a7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "table_combinations_tables_key" ON "table_combinations"  ("venue_id", "table_key") `,
    );
    await queryRunner.query(
      `CREATE TABLE "table_combination_tables" ("combination_id" uuid NOT NULL, "table_id" uuid NOT NULL, CONSTRAINT "PK_c7c55dcc08558af7c924a0bcb14" PRIMARY KEY ("combination_id", "table_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "table_combination_tables_table_idx" ON "table_combination_tables"  ("table_id") `);
    await queryRunner.query(
      `CREATE TABLE "service_windows" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "days" smallint array NOT NULL, "start_minute" smallint NOT NULL, "end_minute" smallint NOT NULL, "turn_minutes" smallint NOT NULL, "deposit_required" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "service_windows_turn_check" CHECK ("turn_minutes" BETWEEN 1 AND 720), CONSTRAINT "service_windows_minutes_check" CHECK ("start_minute" BETWEEN 0 AND 1439 AND "end_minute" BETWEEN 0 AND 1439 AND "start_minute" <> "end_minute"), CONSTRAINT "service_windows_days_check" CHECK (cardinality("days") BETWEEN 1 AND 7 AND "days" <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]), CONSTRAINT "PK_ea23099ce46dab6887cc3d9a100" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "service_windows_venue_idx" ON "service_windows"  ("venue_id") `);
    await queryRunner.query(
      `CREATE TABLE "queue_tokens" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "entry_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(6) WITH TIME ZONE, "replaced_at" TIMESTAMP(6) WITH TIME ZONE, CONSTRAINT "UQ_55cb36bcd4f1d7b40ea5d25155c" UNIQUE ("token_hash"), CONSTRAINT "PK_a05e1ad04d363197d4e6a697b11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "queue_tokens_one_open_per_entry" ON "queue_tokens"  ("entry_id") WHERE "used_at" IS NULL AND "replaced_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "queue_sessions" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "entry_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP(6) WITH TIME ZONE, CONSTRAINT "UQ_fb18ca3a5a4c8ca45e54e9a4a88" UNIQUE ("token_hash"), CONSTRAINT "PK_3a9b6b4360eadc48be2367b2def" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "queue_sessions_entry_idx" ON "queue_sessions"  ("entry_id") `);
    await queryRunner.query(
      `ALTER TABLE "venue_tables" ADD CONSTRAINT "FK_38395066413489adfceb8fef294" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "table_combinations" ADD CONSTRAINT "FK_d60f0fc352dfb1ddc0a4245ad2a" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "table_combination_tables" ADD CONSTRAINT "FK_72deacd8ad682b83a572f43b89b" FOREIGN KEY ("combination_id") REFERENCES "table_combinations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "table_combination_tables" ADD CONSTRAINT "FK_0d673a87f0ab70b809bc953b4a1" FOREIGN KEY ("table_id") REFERENCES "venue_tables"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "service_windows" ADD CONSTRAINT "FK_f4718f09d49c6525e3492f36880" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "queue_tokens" ADD CONSTRAINT "FK_14e06ca87723eb03d324141fb7b" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "queue_tokens" ADD CONSTRAINT "FK_6ee8044eb70185f74d07804c14d" FOREIGN KEY ("entry_id") REFERENCES "queue_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "queue_sessions" ADD CONSTRAINT "FK_de4631f6dfaa873b73a23942ec6" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "queue_sessions" ADD CONSTRAINT "FK_01873f391aedd1c71a8910c994c" FOREIGN KEY ("entry_id") REFERENCES "queue_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "queue_sessions" DROP CONSTRAINT "FK_01873f391aedd1c71a8910c994c"`);
    await queryRunner.query(`ALTER TABLE "queue_sessions" DROP CONSTRAINT "FK_de4631f6dfaa873b73a23942ec6"`);
    await queryRunner.query(`ALTER TABLE "queue_tokens" DROP CONSTRAINT "FK_6ee8044eb70185f74d07804c14d"`);
    await queryRunner.query(`ALTER TABLE "queue_tokens" DROP CONSTRAINT "FK_14e06ca87723eb03d324141fb7b"`);
    await queryRunner.query(`ALTER TABLE "service_windows" DROP CONSTRAINT "FK_f4718f09d49c6525e3492f36880"`);
    await queryRunner.query(`ALTER TABLE "table_combination_tables" DROP CONSTRAINT "FK_0d673a87f0ab70b809bc953b4a1"`);
    await queryRunner.query(`ALTER TABLE "table_combination_tables" DROP CONSTRAINT "FK_72deacd8ad682b83a572f43b89b"`);
    await queryRunner.query(`ALTER TABLE "table_combinations" DROP CONSTRAINT "FK_d60f0fc352dfb1ddc0a4245ad2a"`);
    await queryRunner.query(`ALTER TABLE "venue_tables" DROP CONSTRAINT "FK_38395066413489adfceb8fef294"`);
    await queryRunner.query(`DROP INDEX "public"."queue_sessions_entry_idx"`);
    await queryRunner.query(`DROP TABLE "queue_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."queue_tokens_one_open_per_entry"`);
    await queryRunner.query(`DROP TABLE "queue_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."service_windows_venue_idx"`);
    await queryRunner.query(`DROP TABLE "service_windows"`);
    await queryRunner.query(`DROP INDEX "public"."table_combination_tables_table_idx"`);
    await queryRunner.query(`DROP TABLE "table_combination_tables"`);
    await queryRunner.query(`DROP INDEX "public"."table_combinations_tables_key"`);
    await queryRunner.query(`DROP TABLE "table_combinations"`);
    await queryRunner.query(`DROP INDEX "public"."venue_tables_label_key"`);
    await queryRunner.query(`DROP TABLE "venue_tables"`);
  }
}
