import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A seated party occupies its tables from the moment it sits down. The exclusion constraint on
 * reservation_tables.slot refuses a second party only for the interval the slot says, so a party
 * seated before its booked slot (an early arrival) must have its slot moved to start by then, or a
 * second party could be booked onto the table it sits at. The allocator moves it; this refuses any
 * write that would leave an open visit on tables whose slot starts after the visit opened.
 */
export class SeatedTablesFromSeating1796400200000 implements MigrationInterface {
  name = 'SeatedTablesFromSeating1796400200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION seated_tables_taken_from_seating() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM visits v JOIN reservation_tables rt ON rt.reservation_id = v.reservation_id
              WHERE v.reservation_id = NEW.reservation_id AND v.closed_at IS NULL AND lower(rt.slot) > v.opened_at) THEN
    RAISE EXCEPTION 'seated_tables_taken_from_seating: reservation % is seated before its tables'' slot starts', NEW.reservation_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'seated_tables_taken_from_seating';
  END IF;
  RETURN NULL;
END $$`);
    await queryRunner.query(
      `CREATE TRIGGER seated_tables_taken_from_seating AFTER INSERT ON "visits" FOR EACH ROW EXECUTE FUNCTION seated_tables_taken_from_seating()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER seated_tables_taken_from_seating AFTER INSERT OR UPDATE OF slot ON "reservation_tables" FOR EACH ROW EXECUTE FUNCTION seated_tables_taken_from_seating()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER seated_tables_taken_from_seating ON "reservation_tables"`);
    await queryRunner.query(`DROP TRIGGER seated_tables_taken_from_seating ON "visits"`);
    await queryRunner.query(`DROP FUNCTION seated_tables_taken_from_seating()`);
  }
}
