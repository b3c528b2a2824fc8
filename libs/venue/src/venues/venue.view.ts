import type { VenuePolicy } from './venue-presets.js';
import type { Preset, Venue, VenueDecisions } from './venue.entity.js';

export interface VenueView {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  /** ISO 3166-1 alpha-2; national phone numbers are read with it. */
  country: string | null;
  preset: Preset;
  published: boolean;
  queueEnabled: boolean;
  /** The largest party that may join: the queue cap at tables, the pool's capacity at a seat pool. */
  queuePartyCap: number;
  termsVersion: string;
  sandbox: boolean;
  /** The sandbox's simulated now; null for live venues. */
  clock: string | null;
  policy: VenuePolicy;
  version: number;
  createdAt: string;
  /** The worksheet's recorded decisions (free text; empty when none were given). */
  decisions: VenueDecisions;
}

export function toVenueView(v: Venue): VenueView {
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    timeZone: v.timeZone,
    country: v.country,
    preset: v.preset,
    published: v.published,
    queueEnabled: v.queueEnabled,
    // A seat pool takes groups of 1 through its capacity (the workshop guide's party size) and never
    // applies the stored queue cap: reporting that cap (8) told clients a group of 12 is refused.
    queuePartyCap: v.seating === 'pool' && v.poolCapacity !== null ? v.poolCapacity : v.queuePartyCap,
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
    decisions: v.decisions ?? {},
  };
}
