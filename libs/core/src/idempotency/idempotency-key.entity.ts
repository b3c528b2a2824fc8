import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A stored answer to a retried POST. Written in the same transaction as the command it guards, so the
 * command and its recorded answer commit or vanish together.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKeyRow {
  @PrimaryColumn({ type: 'text' })
  scope: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'response_status', type: 'int' })
  responseStatus: number;

  @Column({ name: 'response_body', type: 'jsonb' })
  responseBody: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
