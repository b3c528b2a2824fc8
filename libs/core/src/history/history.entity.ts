import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One state change of an entry, offer, reservation or other record. Append-only: a trigger in the
 * migration refuses UPDATE and DELETE, so history can never be rewritten, whatever the code does.
 */
@Entity({ name: 'history' })
@Index('history_subject_idx', ['subjectId', 'at'])
@Index('history_venue_idx', ['venueId', 'at'])
export class HistoryRow {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'venue_id', type: 'uuid', nullable: true })
  venueId: string | null;

  @Column({ name: 'subject_type', type: 'text' })
  subjectType: string;

  @Column({ name: 'subject_id', type: 'uuid' })
  subjectId: string;

  @Column({ name: 'from_state', type: 'text', nullable: true })
  fromState: string | null;

  @Column({ name: 'to_state', type: 'text' })
  toState: string;

  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ type: 'text' })
  actor: string;

  @Column({ name: 'operation_id', type: 'text' })
  operationId: string;

  @Column({ type: 'text', nullable: true })
  reason: string | null;
}
