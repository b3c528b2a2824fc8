import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a relay claimed a message: a recipient's later messages wait while an earlier one is being
 * handed over (two relay runs overlap when the provider is slow), and the in-flight ones are indexed.
 */
export class OutboxClaimedAt1796400250000 implements MigrationInterface {
  name = 'OutboxClaimedAt1796400250000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "claimed_at" TIMESTAMP(6) WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "outbox_messages_sending_idx" ON "outbox_messages" ("channel", "to_address") WHERE "status" = 'sending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_sending_idx"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "claimed_at"`);
  }
}
