import type { Offer, OfferState } from './offer.entity.js';

export interface OfferView {
  id: string;
  entryId: string;
  reservationId: string;
  state: OfferState;
  expiresAt: string;
  tableIds: string[];
}

export function toOfferView(o: Offer, tableIds: string[] = []): OfferView {
  return {
    id: o.id,
    entryId: o.entryId,
    reservationId: o.reservationId,
    state: o.state,
    expiresAt: o.expiresAt.toISOString(),
    tableIds,
  };
}
