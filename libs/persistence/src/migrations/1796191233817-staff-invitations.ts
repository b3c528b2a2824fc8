import type { MigrationInterface, QueryRunner } from 'typeorm';

export class StaffInvitations1796191233817 implements MigrationInterface {
  name = 'StaffInvitations1796191233817';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "staff_invitations" ("id" uuid NOT NULL, "venue_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "token_hash" text NOT NULL, "delivery" text NOT NULL, "account_existed" boolean NOT NULL, "invited_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ended_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_e5f1be5d7c89f8c3348ef16ced2" UNIQUE ("token_hash"), CONSTRAINT "staff_invitations_delivery_check" CHECK ("delivery" IN ('email', 'in-person')), CONSTRAINT "staff_invitations_role_check" CHECK ("role" IN ('host', 'manager', 'owner')), CONSTRAINT "PK_842e5346c92d8003bdb2140b6c8" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "staff_invitations_user_idx" ON "staff_invitations"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "staff_users" ADD "must_change_password" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "staff_users" ADD "provisioned_by_venue_id" uuid`);
    await queryRunner.query(`ALTER TABLE "staff_users" ALTER COLUMN "password_hash" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "reservations_venue_created_idx" ON "reservations"  ("venue_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "staff_users" ADD CONSTRAINT "FK_5bef5d39c5328457d22945bbcd3" FOREIGN KEY ("provisioned_by_venue_id") REFERENCES "venues"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "staff_invitations" ADD CONSTRAINT "FK_b07036ab9b1ef2cfe8c2585093a" FOREIGN KEY ("venue_id") REFERENCES "venues"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "staff_invitations" ADD CONSTRAINT "FK_22802f1b9ba6a6c757db786ad59" FOREIGN KEY ("user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP CONSTRAINT "FK_22802f1b9ba6a6c757db786ad59"`);
    await queryRunner.query(`ALTER TABLE "staff_invitations" DROP CONSTRAINT "FK_b07036ab9b1ef2cfe8c2585093a"`);
    await queryRunner.query(`ALTER TABLE "staff_users" DROP CONSTRAINT "FK_5bef5d39c5328457d22945bbcd3"`);
    await queryRunner.query(`DROP INDEX "public"."reservations_venue_created_idx"`);
    await queryRunner.query(`ALTER TABLE "staff_users" ALTER COLUMN "password_hash" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "staff_users" DROP COLUMN "provisioned_by_venue_id"`);
    await queryRunner.query(`ALTER TABLE "staff_users" DROP COLUMN "must_change_password"`);
    await queryRunner.query(`DROP INDEX "public"."staff_invitations_user_idx"`);
    await queryRunner.query(`DROP TABLE "staff_invitations"`);
  }
}
