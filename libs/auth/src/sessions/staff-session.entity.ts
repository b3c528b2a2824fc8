import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A signed-in session. Only the SHA-256 of the bearer token is stored, never the token. */
@Entity({ name: 'staff_sessions' })
@Index('staff_sessions_user_idx', ['userId'])
export class StaffSession {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ForeignKey('staff_users', { onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
