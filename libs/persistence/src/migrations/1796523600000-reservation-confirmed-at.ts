import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a reservation became CONFIRMED, in a column of its own: it was read from `updated_at`, which
 * every later change (a seating, a cancellation, a correction) moves. Rows written before are filled
 * from their history (the first move to CONFIRMED), else, for one still CONFIRMED with no such row,
 * from `updated_at`, the best that was kept; one never confirmed stays null.
 */
export class ReservationConfirmedAt1796523600000 implements MigrationInterface {
  name = 'ReservationConfirmedAt1796523600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reservations" ADD "confirmed_at" TIMESTAMP(6) WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE reservations r SET confirmed_at = h.at
         FROM (SELECT subject_id, min(at) AS at FROM history
                WHERE subject_type = 'reservation' AND to_state = 'CONFIRMED' GROUP BY subject_id) h
        WHERE h.subject_id = r.id`,
    );
    await queryRunner.query(
      `UPDATE reservations SET confirmed_at = updated_at WHERE confirmed_at IS NULL AND state = 'CONFIRMED'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "reservations" DROP COLUMN "confirmed_at"`);
  }
}
