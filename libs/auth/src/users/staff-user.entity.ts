import { Column, Entity, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';

/** A staff account. The email is stored normalised (trimmed, lower-case) and unique. */
@Entity({ name: 'staff_users' })
export class StaffUser {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', unique: true })
  email: string;

  @Column({ type: 'text' })
  name: string;

  /** argon2id, PHC string format. Null: invited, no password yet (nobody can sign in). */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash: string | null;

  /** The password was chosen by someone else (a manager provisioning it): change it at first sign-in. */
  @Column({ name: 'must_change_password', type: 'boolean', default: false })
  mustChangePassword: boolean;

  /** The venue whose manager created this account with a password; its managers may reset it until claimed. */
  @ForeignKey('venues', { onDelete: 'SET NULL' })
  @Column({ name: 'provisioned_by_venue_id', type: 'uuid', nullable: true })
  provisionedByVenueId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
