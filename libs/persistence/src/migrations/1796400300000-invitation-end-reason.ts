import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations keep why their link ended (claimed, replaced, cancelled): a manager may now cancel an
 * open link, and a second cancel says how it had ended. At most one open link per person and venue.
 *
 * Earlier rows are filled from what was written with them: a claim always recorded the audit event
 * `invitation-claimed` naming the invitation, a replacement always inserted the newer invitation at
 * the instant it ended the older one, and the only other way a link ended was the member's removal.
 */
export class InvitationEndReason1796400300000 implements MigrationInterface {
  name = 'InvitationEndReason1796400300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_invitations" ADD "end_reason" text`);
    // Adding under the venue lock always ended the older link first; should two open ones exist anyway, the newer stands.
    await queryRunner.query(
      `UPDATE "staff_invitations" o SET "ended_at" = n."created_at", "end_reason" = 'replaced'
         FROM "staff_invitations" n
        WHERE o."ended_at" IS NULL AND n."ended_at" IS NULL AND n."venue_id" = o."venue_id" AND n."user_id" = o."user_id"
          AND (n."created_at", n."id") > (o."created_at", o."id")`,
    );
    await queryRunner.query(
      `UPDATE "staff_invitations" i SET "end_reason" = 'claimed'
        WHERE i."ended_at" IS NOT NULL AND i."end_reason" IS NULL
          AND EXISTS (SELECT 1 FROM "audit_events" a
                       WHERE a."action" = 'invitation-claimed' AND a."details"->>'invitationId' = i."id"::text)`,
    );
    await queryRunner.query(
      `UPDATE "staff_invitations" i SET "end_reason" = 'replaced'
        WHERE i."ended_at" IS NOT NULL AND i."end_reason" IS NULL
          AND EXISTS (SELECT 1 FROM "staff_invitations" n
                       WHERE n."venue_id" = i."venue_id" AND n."user_id" = i."user_id" AND n."id" <> i."id"
                         AND n."created_at" = i."ended_at")`,
    );
    await queryRunner.query(
      `UPDATE "staff_invitations" SET "end_reason" = 'cancelled' WHERE "ended_at" IS NOT NULL AND "end_reason" IS NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "staff_invitations_one_open" ON "staff_invitations" ("venue_id", "user_id") WHERE "ended_at" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_ended_with_reason" CHECK (("ended_at" IS NULL) = ("end_reason" IS NULL))`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_end_reason_check" CHECK ("end_reason" IN ('claimed', 'replaced', 'cancelled'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP CONSTRAINT "staff_invitations_end_reason_check"`);
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP CONSTRAINT "staff_invitations_ended_with_reason"`);
    await queryRunner.query(`DROP INDEX "public"."staff_invitations_one_open"`);
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP COLUMN "end_reason"`);
  }
}
