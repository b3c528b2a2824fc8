import type { Reservation, ReservationState } from './reservation.entity.js';

export interface ReservationView {
  id: string;
  entryId: string | null;
  kind: 'pool' | 'tables';
  name: string;
  partySize: number;
  state: ReservationState;
  holdExpiresAt: string | null;
  stateReason: string | null;
  termsVersion: string | null;
  tableIds: string[];
  createdAt: string;
  updatedAt: string;
  /** When it became CONFIRMED; null for one never confirmed. */
  confirmedAt: string | null;
}

export function toReservationView(r: Reservation, tableIds: string[] = []): ReservationView {
  return {
    id: r.id,
    entryId: r.entryId,
    kind: r.kind,
    name: r.name,
    partySize: r.partySize,
    state: r.state,
    holdExpiresAt: r.holdExpiresAt ? r.holdExpiresAt.toISOString() : null,
    stateReason: r.stateReason,
    termsVersion: r.termsVersion,
    tableIds,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    confirmedAt: r.confirmedAt ? r.confirmedAt.toISOString() : null,
  };
}
