import type { OnOfferExpired, Preset, QueueOrder, QuoteModel, Seating } from './venue.entity.js';

export interface VenuePolicy {
  seating: Seating;
  poolCapacity: number | null;
  holdSeconds: number;
  onOfferExpired: OnOfferExpired;
  requireServiceWindow: boolean;
  oneEntryPerContact: boolean;
  order: QueueOrder;
  quoteModel: QuoteModel;
}

/** The two shipped presets (ARCHITECTURE.md, "One engine, two policies"); a manager may change any field. */
export function presetPolicy(preset: Preset, poolCapacity?: number): VenuePolicy {
  switch (preset) {
    case 'restaurant':
      return {
        seating: 'tables',
        poolCapacity: null,
        holdSeconds: 300,
        onOfferExpired: 'keep-place',
        requireServiceWindow: true,
        oneEntryPerContact: true,
        order: 'host-pick',
        quoteModel: 'turns',
      };
    case 'workshop':
      return {
        seating: 'pool',
        poolCapacity: poolCapacity ?? 12,
        holdSeconds: 1800,
        onOfferExpired: 'leave-queue',
        requireServiceWindow: false,
        oneEntryPerContact: false,
        order: 'strict',
        quoteModel: 'turns',
      };
  }
}
