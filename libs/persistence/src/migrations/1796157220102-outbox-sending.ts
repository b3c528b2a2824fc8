import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The relay claims a message ('sending') before handing it to the provider: at most once. */
export class OutboxSending1796157220102 implements MigrationInterface {
  name = 'OutboxSending1796157220102';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_status_check" CHECK ("status" IN ('recorded', 'sending', 'sent', 'failed'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_status_check" CHECK ("status" IN ('recorded', 'sent', 'failed'))`,
    );
  }
}
