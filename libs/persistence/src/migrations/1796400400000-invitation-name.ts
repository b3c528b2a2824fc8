import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations keep the name their inviter gave: the pending list showed the account's own name,
 * which told any venue's manager who holds an email and what they call themselves. Older rows stay
 * null and are listed by their email.
 */
export class InvitationName1796400400000 implements MigrationInterface {
  name = 'InvitationName1796400400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_invitations" ADD "name" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP COLUMN "name"`);
  }
}
