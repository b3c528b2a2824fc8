import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A message the provider clearly did not take is tried again, a bounded number of times, after a backoff. */
export class OutboxRetries1796400100000 implements MigrationInterface {
  name = 'OutboxRetries1796400100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "retry_at" TIMESTAMP(6) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "retry_at"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "attempts"`);
  }
}
