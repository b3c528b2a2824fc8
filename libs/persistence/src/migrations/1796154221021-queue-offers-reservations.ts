import type { MigrationInterface, QueryRunner } from 'typeorm';

export class QueueOffersReservations1796154221021 implements MigrationInterface {
  name = 'QueueOffersReservations1796154221021';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "queue_entries" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "name" text NOT NULL, "party_size" integer NOT NULL, "email" text, "phone" text, "contact_key" text, "status" text NOT NULL, "received_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "queue_sequence" bigint NOT NULL, "business_date" date NOT NULL, "version" integer NOT NULL DEFAULT '1', "quoted_position" integer, "quoted_wait_minutes" integer, "quoted_at" TIMESTAMP(6) WITH TIME ZONE, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "queue_entries_party_size_check" CHECK ("party_size" BETWEEN 1 AND 100000), CONSTRAINT "queue_entries_status_check" CHECK ("status" IN ('waiting', 'offered', 'confirmed', 'seated', 'cancelled', 'expired')), CONSTRAINT "PK_8e533b14d1153fecfad7767bda5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "queue_entries_one_active_per_contact" ON "queue_entries"  ("venue_id", "business_date", "contact_key") WHERE "status" IN ('waiting', 'offered') AND "contact_key" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "queue_entries_active_order_idx" ON "queue_entries"  ("venue_id", "received_at", "queue_sequence") WHERE "status" IN ('waiting', 'offered')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "queue_entries_sequence_key" ON "queue_entries"  ("venue_id", "queue_sequence") `,
    );
    await queryRunner.query(
      `CREATE TABLE "reservations" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "entry_id" uuid, "kind" text NOT NULL, "name" text NOT NULL, "party_size" integer NOT NULL, "email" text, "phone" text, "state" text NOT NULL, "hold_expires_at" TIMESTAMP(6) WITH TIME ZONE, "state_reason" text, "terms_version" text, "booking_link_hash" text, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_c1cca26b5a769df6a8588410c65" UNIQUE ("booking_link_hash"), CONSTRAINT "reservations_party_size_check" CHECK ("party_size" >= 1), CONSTRAINT "reservations_kind_check" CHECK ("kind" IN ('pool', 'tables')), CONSTRAINT "reservations_held_expiry_check" CHECK ("state" <> 'HELD' OR "hold_expires_at" IS NOT NULL), CONSTRAINT "reservations_state_check" CHECK ("state" IN ('HELD', 'CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED', 'EXPIRED')), CONSTRAINT "PK_da95cef71b617ac35dc5bcda243" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "reservations_entry_idx" ON "reservations"  ("entry_id") `);
    await queryRunner.query(`CREATE INDEX "reservations_venue_state_idx" ON "reservations"  ("venue_id", "state") `);
    await queryRunner.query(
      `CREATE TABLE "offers" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "entry_id" uuid NOT NULL, "reservation_id" uuid NOT NULL, "state" text NOT NULL, "expires_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "resolved_at" TIMESTAMP(6) WITH TIME ZONE, CONSTRAINT "UQ_fa64113ed84de9eb3b289f7671a" UNIQUE ("reservation_id"), CONSTRAINT "offers_state_check" CHECK ("state" IN ('live', 'accepted', 'expired', 'withdrawn', 'cancelled')), CONSTRAINT "PK_4c88e956195bba85977da21b8f4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "offers_live_expiry_idx" ON "offers"  ("venue_id", "expires_at") WHERE "state" = 'live'`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "offers_one_live_per_entry" ON "offers"  ("entry_id") WHERE "state" = 'live'`);
    await queryRunner.query(
      `CREATE TABLE "outbox_messages" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "to_address" text NOT NULL, "template" text NOT NULL, "subject" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT 'recorded', "entry_id" uuid, "reservation_id" uuid, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, "sent_at" TIMESTAMP(6) WITH TIME ZONE, CONSTRAINT "outbox_messages_status_check" CHECK ("status" IN ('recorded', 'sent', 'failed')), CONSTRAINT "PK_0171348f527c64b137e4d4f5b66" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_messages_pending_idx" ON "outbox_messages"  ("created_at") WHERE "status" = 'recorded'`,
    );
    await queryRunner.query(`CREATE INDEX "outbox_messages_venue_idx" ON "outbox_messages"  ("venue_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "board_events" ("venue_id" uuid NOT NULL, "version" bigint NOT NULL, "type" text NOT NULL, "data" jsonb NOT NULL, "created_at" TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e9d2017a1dc14e1962b1e062871" PRIMARY KEY ("venue_id", "version"))`,
    );
    await queryRunner.query(`ALTER TABLE "venues" ADD "pool_confirmed" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "venues" ADD "pool_held" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "venues" ADD "queue_sequence_last" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `ALTER TABLE "venues" ADD CONSTRAINT "venues_pool_counts_check" CHECK ("pool_confirmed" >= 0 AND "pool_held" >= 0 AND ("pool_capacity" IS NULL OR "pool_confirmed" + "pool_held" <= "pool_capacity"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "queue_entries" ADD CONSTRAINT "FK_1f95f4f6267d5f81c3dfb13e0a7" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reservations" ADD CONSTRAINT "FK_f486dcef5c26fd22cc63ba1c071" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reservations" ADD CONSTRAINT "FK_7a122b839de2c6d0b740a3909df" FOREIGN KEY ("entry_id") REFERENCES "queue_entries"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "offers" ADD CONSTRAINT "FK_3c97c6007b187566562b9b47f71" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "offers" ADD CONSTRAINT "FK_47ee60f64eaa077620357d05090" FOREIGN KEY ("entry_id") REFERENCES "queue_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "offers" ADD CONSTRAINT "FK_fa64113ed84de9eb3b289f7671a" FOREIGN KEY ("reservation_id") REFERENCES "reservations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "outbox_messages" ADD CONSTRAINT "FK_c8776b588f838ef915c5312c479" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "board_events" ADD CONSTRAINT "FK_eb360eb3305f6f820db0431d366" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Invariant 1 in the database: the venue's pool counters follow every reservation change, and the
    // venues check (confirmed + held <= capacity, none negative) refuses any write that would break it.
    await queryRunner.query(`CREATE FUNCTION reservations_pool_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_confirmed int := 0;
  d_held int := 0;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.kind = 'pool' THEN
    IF OLD.state IN ('CONFIRMED', 'SEATED') THEN d_confirmed := d_confirmed - OLD.party_size;
    ELSIF OLD.state = 'HELD' THEN d_held := d_held - OLD.party_size;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind = 'pool' THEN
    IF NEW.state IN ('CONFIRMED', 'SEATED') THEN d_confirmed := d_confirmed + NEW.party_size;
    ELSIF NEW.state = 'HELD' THEN d_held := d_held + NEW.party_size;
    END IF;
  END IF;
  IF d_confirmed <> 0 OR d_held <> 0 THEN
    UPDATE venues SET pool_confirmed = pool_confirmed + d_confirmed, pool_held = pool_held + d_held
     WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.venue_id ELSE NEW.venue_id END;
  END IF;
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER reservations_pool_counts AFTER INSERT OR UPDATE OF state, party_size, kind OR DELETE ON "reservations" FOR EACH ROW EXECUTE FUNCTION reservations_pool_counts()`,
    );
    // Board events are history too: never rewritten.
    await queryRunner.query(
      `CREATE TRIGGER board_events_append_only BEFORE UPDATE ON "board_events" FOR EACH ROW EXECUTE FUNCTION history_is_append_only()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER board_events_append_only ON "board_events"`);
    await queryRunner.query(`DROP TRIGGER reservations_pool_counts ON "reservations"`);
    await queryRunner.query(`DROP FUNCTION reservations_pool_counts()`);
    await queryRunner.query(`ALTER TABLE "board_events" DROP CONSTRAINT "FK_eb360eb3305f6f820db0431d366"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP CONSTRAINT "FK_c8776b588f838ef915c5312c479"`);
    await queryRunner.query(`ALTER TABLE "offers" DROP CONSTRAINT "FK_fa64113ed84de9eb3b289f7671a"`);
    await queryRunner.query(`ALTER TABLE "offers" DROP CONSTRAINT "FK_47ee60f64eaa077620357d05090"`);
    await queryRunner.query(`ALTER TABLE "offers" DROP CONSTRAINT "FK_3c97c6007b187566562b9b47f71"`);
    await queryRunner.query(`ALTER TABLE "reservations" DROP CONSTRAINT "FK_7a122b839de2c6d0b740a3909df"`);
    await queryRunner.query(`ALTER TABLE "reservations" DROP CONSTRAINT "FK_f486dcef5c26fd22cc63ba1c071"`);
    await queryRunner.query(`ALTER TABLE "queue_entries" DROP CONSTRAINT "FK_1f95f4f6267d5f81c3dfb13e0a7"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP CONSTRAINT "venues_pool_counts_check"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "queue_sequence_last"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "pool_held"`);
    await queryRunner.query(`ALTER TABLE "venues" DROP COLUMN "pool_confirmed"`);
    await queryRunner.query(`DROP TABLE "board_events"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_venue_idx"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_pending_idx"`);
    await queryRunner.query(`DROP TABLE "outbox_messages"`);
    await queryRunner.query(`DROP INDEX "public"."offers_one_live_per_entry"`);
    await queryRunner.query(`DROP INDEX "public"."offers_live_expiry_idx"`);
    await queryRunner.query(`DROP TABLE "offers"`);
    await queryRunner.query(`DROP INDEX "public"."reservations_venue_state_idx"`);
    await queryRunner.query(`DROP INDEX "public"."reservations_entry_idx"`);
    await queryRunner.query(`DROP TABLE "reservations"`);
    await queryRunner.query(`DROP INDEX "public"."queue_entries_sequence_key"`);
    await queryRunner.query(`DROP INDEX "public"."queue_entries_active_order_idx"`);
    await queryRunner.query(`DROP INDEX "public"."queue_entries_one_active_per_contact"`);
    await queryRunner.query(`DROP TABLE "queue_entries"`);
  }
}
