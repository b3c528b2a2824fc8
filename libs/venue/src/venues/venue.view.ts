import type { VenuePolicy } from './venue-presets.js';
import type { Preset, Venue } from './venue.entity.js';

export interface VenueView {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  preset: Preset;
  published: boolean;
  queueEnabled: boolean;
  queuePartyCap: number;
  termsVersion: string;
  sandbox: boolean;
  /** The sandbox's simulated now; null for live venues. */
  clock: string | null;
  policy: VenuePolicy;
  version: number;
  createdAt: string;
}

export function toVenueView(v: Venue): VenueView {
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    timeZone: v.timeZone,
    preset: v.preset,
    published: v.published,
    queueEnabled: v.queueEnabled,
    queuePartyCap: v.queuePartyCap,
    termsVersion: v.termsVersion,
    sandbox: v.sandbox,
    clock: v.clockNow ? v.clockNow.toISOString() : null,
    policy: {
      seating: v.seating,
      poolCapacity: v.poolCapacity,
      holdSeconds: v.holdSeconds,
      onOfferExpired: v.onOfferExpired,
      requireServiceWindow: v.requireServiceWindow,
      oneEntryPerContact: v.oneEntryPerContact,
      order: v.queueOrder,
      quoteModel: v.quoteModel,
    },
    version: Number(v.version),
    createdAt: v.createdAt.toISOString(),
  };
}
