import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Texts beside emails in the outbox: each message's channel, a failed message's reason, reads by entry (the board's reach). */
export class GuestChannels1796190122787 implements MigrationInterface {
  name = 'GuestChannels1796190122787';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "channel" text NOT NULL DEFAULT 'email'`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" ADD "failure_reason" text`);
    await queryRunner.query(
      `CREATE INDEX "outbox_messages_entry_idx" ON "outbox_messages"  ("entry_id", "created_at") WHERE "entry_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_channel_check" CHECK ("channel" IN ('email', 'sms'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_channel_check"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_messages_entry_idx"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "failure_reason"`);
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP COLUMN "channel"`);
  }
}
