import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages the relay will never send (a sandbox venue's, a table-ready whose offer ended, too old)
 * stay `recorded` with the reason, and leave the pending index the relay claims from.
 */
export class OutboxNotSent1796400000000 implements MigrationInterface {
  name = 'OutboxNotSent1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_pending_idx"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "not_sent_reason" text`);
    await queryRunner.query(
      `CREATE INDEX "outbox_messages_pending_idx" ON "outbox_messages" ("created_at") WHERE "status" = 'recorded' AND "not_sent_reason" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_pending_idx"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "not_sent_reason"`);
    await queryRunner.query(
      `CREATE INDEX "outbox_messages_pending_idx" ON "outbox_messages" ("created_at") WHERE "status" = 'recorded'`,
    );
  }
}
