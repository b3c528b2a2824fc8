import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The earliest turn a confirmed or seated party holds tables from, for the sweep's question before
 * every offer and acceptance and in every board and party read (EndedDayTables.factsRead): before, it
 * joined every confirmed or seated booking of the venue to its tables, a read that grew with each
 * acceptance of the evening and with every booking made days ahead.
 *
 * `reservation_tables.holding` says the reservation is CONFIRMED or SEATED, kept by the triggers that
 * already keep `active` (HELD, CONFIRMED or SEATED) in step with the reservation's state, so no code
 * path can leave it wrong; an index of the holding placements by venue and turn start answers the
 * question with its first entry. The one write it adds: a placement's row is updated when its
 * reservation goes from HELD to CONFIRMED (an acceptance), by the trigger, in the same statement
 * (every other change of state either changed `active` already or leaves both as they are).
 */
export class HoldingTurnStart1796523300000 implements MigrationInterface {
  name = 'HoldingTurnStart1796523300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reservation_tables" ADD "holding" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `UPDATE reservation_tables rt SET holding = true FROM reservations r WHERE r.id = rt.reservation_id AND r.state IN ('CONFIRMED', 'SEATED')`,
    );
    await queryRunner.query(`CREATE OR REPLACE FUNCTION reservation_tables_follow_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reservation_tables SET active = NEW.state IN ('HELD', 'CONFIRMED', 'SEATED'), holding = NEW.state IN ('CONFIRMED', 'SEATED')
   WHERE reservation_id = NEW.id
     AND (active IS DISTINCT FROM (NEW.state IN ('HELD', 'CONFIRMED', 'SEATED'))
          OR holding IS DISTINCT FROM (NEW.state IN ('CONFIRMED', 'SEATED')));
  RETURN NULL;
END $$`);
    // One read of the reservation's state for both (its key: at most one row; none, as before, is inactive).
    await queryRunner.query(`CREATE OR REPLACE FUNCTION reservation_tables_initial_state() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text;
BEGIN
  SELECT r.state INTO s FROM reservations r WHERE r.id = NEW.reservation_id;
  NEW.active := COALESCE(s IN ('HELD', 'CONFIRMED', 'SEATED'), false);
  NEW.holding := COALESCE(s IN ('CONFIRMED', 'SEATED'), false);
  RETURN NEW;
END $$`);
    await queryRunner.query(
      `CREATE INDEX "reservation_tables_holding_start_idx" ON "reservation_tables" ("venue_id", lower("slot")) WHERE "holding"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."reservation_tables_holding_start_idx"`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION reservation_tables_initial_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.active := EXISTS (SELECT 1 FROM reservations r WHERE r.id = NEW.reservation_id AND r.state IN ('HELD', 'CONFIRMED', 'SEATED'));
  RETURN NEW;
END $$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION reservation_tables_follow_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reservation_tables SET active = NEW.state IN ('HELD', 'CONFIRMED', 'SEATED')
   WHERE reservation_id = NEW.id AND active IS DISTINCT FROM (NEW.state IN ('HELD', 'CONFIRMED', 'SEATED'));
  RETURN NULL;
END $$`);
    await queryRunner.query(`ALTER TABLE "reservation_tables" DROP COLUMN "holding"`);
  }
}
