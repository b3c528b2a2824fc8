import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1796153038184 implements MigrationInterface {
  name = 'Initial1796153038184';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Exclusion constraints on (table, time slot) need btree_gist; PGlite loads it from its contrib set.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "action" text NOT NULL, "actor" text NOT NULL, "venue_id" uuid, "subject_user_id" uuid, "ip" text, "details" jsonb NOT NULL, CONSTRAINT "PK_910f64d901a5c3e9878f0d4a407" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "audit_events_at_idx" ON "audit_events"  ("at") `);
    await queryRunner.query(
      `CREATE TABLE "history" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "venue_id" uuid, "subject_type" text NOT NULL, "subject_id" uuid NOT NULL, "from_state" text, "to_state" text NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "actor" text NOT NULL, "operation_id" text NOT NULL, "reason" text, CONSTRAINT "PK_9384942edf4804b38ca0ee51416" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "history_venue_idx" ON "history"  ("venue_id", "at") `);
    await queryRunner.query(`CREATE INDEX "history_subject_idx" ON "history"  ("subject_id", "at") `);
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("scope" text NOT NULL, "key" text NOT NULL, "request_hash" text NOT NULL, "response_status" integer NOT NULL, "response_body" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_15de2f76fa9f27ad8f330983607" PRIMARY KEY ("scope", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "staff_users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "name" text NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_4f32dd66546226ea64f5573b770" UNIQUE ("email"), CONSTRAINT "PK_c6b167335377df69f7910c2c75e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "staff_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_c435ca5b3c71d72635df8d4119d" UNIQUE ("token_hash"), CONSTRAINT "PK_b9be2467392ab95efaa3661cce2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "venue_memberships" ("venue_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "venue_memberships_role_check" CHECK ("role" IN ('host', 'manager', 'owner')), CONSTRAINT "PK_250d693a40282a8953c1ef0dfae" PRIMARY KEY ("venue_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "venue_memberships_user_idx" ON "venue_memberships"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "venues" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" text NOT NULL, "name" text NOT NULL, "time_zone" text NOT NULL, "preset" text NOT NULL, "published" boolean NOT NULL DEFAULT false, "queue_enabled" boolean NOT NULL DEFAULT true, "queue_party_cap" integer NOT NULL DEFAULT '8', "terms_version" text NOT NULL DEFAULT 'v1', "seating" text NOT NULL, "pool_capacity" integer, "hold_seconds" integer NOT NULL, "on_offer_expired" text NOT NULL, "require_service_window" boolean NOT NULL, "one_entry_per_contact" boolean NOT NULL, "queue_order" text NOT NULL, "sandbox" boolean NOT NULL DEFAULT false, "clock_now" TIMESTAMP(6) WITH TIME ZONE, "version" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_9fd71efb7abb246a69847399d14" UNIQUE ("slug"), CONSTRAINT "venues_sandbox_clock_check" CHECK ("sandbox" = ("clock_now" IS NOT NULL)), CONSTRAINT "venues_party_cap_check" CHECK ("queue_party_cap" BETWEEN 1 AND 200), CONSTRAINT "venues_hold_seconds_check" CHECK ("hold_seconds" > 0), CONSTRAINT "venues_order_check" CHECK ("queue_order" IN ('host-pick', 'strict')), CONSTRAINT "venues_on_offer_expired_check" CHECK ("on_offer_expired" IN ('keep-place', 'leave-queue')), CONSTRAINT "venues_pool_capacity_check" CHECK (("seating" = 'pool') = ("pool_capacity" IS NOT NULL) AND ("pool_capacity" IS NULL OR "pool_capacity" > 0)), CONSTRAINT "venues_seating_check" CHECK ("seating" IN ('tables', 'pool')), CONSTRAINT "venues_preset_check" CHECK ("preset" IN ('restaurant', 'workshop')), CONSTRAINT "PK_cb0f885278d12384eb7a81818be" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_sessions" ADD CONSTRAINT "FK_2d3e82105bee50ac45fe3ed5975" FOREIGN KEY ("user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "venue_memberships" ADD CONSTRAINT "FK_d764891da949aff1d5b7c060609" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "venue_memberships" ADD CONSTRAINT "FK_fa4e3f91e54aeb743b1ac9affdb" FOREIGN KEY ("user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // History is never rewritten (invariant 5): the database itself refuses UPDATE and DELETE.
    await queryRunner.query(
      `CREATE FUNCTION history_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'history rows are append-only'; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER history_append_only BEFORE UPDATE OR DELETE ON "history" FOR EACH ROW EXECUTE FUNCTION history_is_append_only()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION history_is_append_only()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER audit_events_append_only ON "audit_events"`);
    await queryRunner.query(`DROP TRIGGER history_append_only ON "history"`);
    await queryRunner.query(`DROP FUNCTION history_is_append_only()`);
    await queryRunner.query(`ALTER TABLE "venue_memberships" DROP CONSTRAINT "FK_fa4e3f91e54aeb743b1ac9affdb"`);
    await queryRunner.query(`ALTER TABLE "venue_memberships" DROP CONSTRAINT "FK_d764891da949aff1d5b7c060609"`);
    await queryRunner.query(`ALTER TABLE "staff_sessions" DROP CONSTRAINT "FK_2d3e82105bee50ac45fe3ed5975"`);
    await queryRunner.query(`DROP TABLE "venues"`);
    await queryRunner.query(`DROP INDEX "public"."venue_memberships_user_idx"`);
    await queryRunner.query(`DROP TABLE "venue_memberships"`);
    await queryRunner.query(`DROP INDEX "public"."staff_sessions_user_idx"`);
    await queryRunner.query(`DROP TABLE "staff_sessions"`);
    await queryRunner.query(`DROP TABLE "staff_users"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_created_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    await queryRunner.query(`DROP INDEX "public"."history_subject_idx"`);
    await queryRunner.query(`DROP INDEX "public"."history_venue_idx"`);
    await queryRunner.query(`DROP TABLE "history"`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_at_idx"`);
    await queryRunner.query(`DROP TABLE "audit_events"`);
  }
}
