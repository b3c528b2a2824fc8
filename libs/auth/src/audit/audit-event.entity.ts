import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Security-relevant acts: logins, failed logins, logouts, membership changes. Append-only. */
@Entity({ name: 'audit_events' })
@Index('audit_events_at_idx', ['at'])
export class AuditEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ type: 'text' })
  action: string;

  /** `staff:<id>`, `public`, or `system`. */
  @Column({ type: 'text' })
  actor: string;

  @Column({ name: 'venue_id', type: 'uuid', nullable: true })
  venueId: string | null;

  @Column({ name: 'subject_user_id', type: 'uuid', nullable: true })
  subjectUserId: string | null;

  @Column({ type: 'text', nullable: true })
  ip: string | null;

  @Column({ type: 'jsonb' })
  details: Record<string, unknown>;
}
