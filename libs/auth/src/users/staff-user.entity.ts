import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A staff account. The email is stored normalised (trimmed, lower-case) and unique. */
@Entity({ name: 'staff_users' })
export class StaffUser {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', unique: true })
  email: string;

  @Column({ type: 'text' })
  name: string;

  /** argon2id, PHC string format. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
