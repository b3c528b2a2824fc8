import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A party's session on its own booking, opened by exchanging the one-time booking link. */
@Entity({ name: 'booking_sessions' })
@Index('booking_sessions_reservation_idx', ['reservationId'])
export class BookingSession {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @ForeignKey('reservations', { onDelete: 'CASCADE' })
  @Column({ name: 'reservation_id', type: 'uuid' })
  reservationId: string;

  /** SHA-256 of the session token; the token itself is shown once. */
  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 6 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 6 })
  expiresAt: Date;
}
