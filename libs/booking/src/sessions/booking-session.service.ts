import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { limitAddress, TransactionRunner } from '@hostboard/core';
import { AttemptLimiter, hashSecret, newSecretToken, SECRET_TOKEN_SHAPE } from '@hostboard/auth';
import { Reservation, TableAllocator, toReservationView, type ReservationView } from '@hostboard/allocator';
// The same generic TOKEN_INVALID as a bad queue token: nothing tells which credential space was tried.
import { tokenInvalid } from '@hostboard/queue';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import { BookingSession } from './booking-session.entity.js';

export const BOOKING_SESSION_MINUTES = 60;

export interface BookingSessionIdentity {
  sessionId: string;
  reservationId: string;
  venueId: string;
}

/**
 * Booking links are their own credential space: a link opens a session on that booking alone, once;
 * a queue token is not a booking link and a booking link opens no queue entry.
 */
@Injectable()
export class BookingSessionService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly limiter: AttemptLimiter,
    private readonly tables: TableAllocator,
  ) {}

  /** Past the address's limit, only a link that opens a session is answered other than RATE_LIMITED (`secretCheck`). */
  exchange(link: string): Promise<{ sessionToken: string; reservationId: string; expiresAt: string }> {
    const addressKey = `booking-link:ip:${limitAddress()}`;
    return this.limiter.secretCheck([addressKey], () => this.open(link));
  }

  private async open(link: string): Promise<{ sessionToken: string; reservationId: string; expiresAt: string }> {
    const found = SECRET_TOKEN_SHAPE.test(link)
      ? await this.tx.run(({ manager }) => manager.findOneBy(Reservation, { bookingLinkHash: hashSecret(link) }))
      : null;
    if (!found) throw tokenInvalid();
    const secret = newSecretToken();
    const opened = await this.tx.command<{ sessionToken: string; reservationId: string; expiresAt: string }>(
      { venueId: found.venueId, storedAs: (r) => ({ ...r, sessionToken: null }) },
      async ({ manager }) => {
        const venue = await this.venues.lock(manager, found.venueId);
        const now = this.clock.now(venue);
        // Used once: the exchange marks the link, guarded by "not used yet".
        const used = await manager
          .createQueryBuilder()
          .update(Reservation)
          .set({ bookingLinkUsedAt: now })
          .where('id = :id AND booking_link_used_at IS NULL', { id: found.id })
          .execute();
        if ((used.affected ?? 0) === 0) throw tokenInvalid();
        const expiresAt = new Date(now.getTime() + BOOKING_SESSION_MINUTES * 60_000);
        await manager.insert(BookingSession, {
          id: randomUUID(),
          reservationId: found.id,
          tokenHash: hashSecret(secret),
          createdAt: now,
          expiresAt,
        });
        return { sessionToken: secret, reservationId: found.id, expiresAt: expiresAt.toISOString() };
      },
    );
    return opened;
  }

  async authenticate(secret: string): Promise<BookingSessionIdentity> {
    if (!SECRET_TOKEN_SHAPE.test(secret)) throw tokenInvalid();
    return this.tx.run(async ({ manager }) => {
      const session = await manager.findOneBy(BookingSession, { tokenHash: hashSecret(secret) });
      const reservation = session ? await manager.findOneBy(Reservation, { id: session.reservationId }) : null;
      const venue = reservation ? await this.venues.findById(manager, reservation.venueId) : null;
      if (!session || !reservation || !venue || !(this.clock.now(venue).getTime() < session.expiresAt.getTime()))
        throw tokenInvalid();
      return { sessionId: session.id, reservationId: reservation.id, venueId: venue.id };
    });
  }

  /** The session's own booking, and nothing else. */
  async view(identity: BookingSessionIdentity): Promise<ReservationView> {
    return this.tx.run(async ({ manager }) => {
      const r = await manager.findOneBy(Reservation, { id: identity.reservationId });
      if (!r) throw tokenInvalid();
      return toReservationView(r, (await this.tables.tableIdsOf(manager, [r.id])).get(r.id) ?? []);
    });
  }
}
