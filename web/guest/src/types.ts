/** What the api answers the party (POST /v1/queue-status, GET /v1/queue-session): API.md "Queue sessions". */
export type EntryStatus = 'waiting' | 'offered' | 'confirmed' | 'seated' | 'cancelled' | 'expired';

/** A table venue (a restaurant) or a seat-pool venue (a workshop): the page words each in its own terms. */
export type Seating = 'tables' | 'pool';

export interface PartyView {
  /** `sandbox`: a practice venue, whose clock stands still until a manager moves it. */
  venue: { name: string; timeZone: string; sandbox: boolean; seating?: Seating };
  /** The venue's clock when the answer was made (a sandbox venue's simulated one). */
  now: string;
  entry: { id: string; name: string; partySize: number; status: EntryStatus };
  position: number | null;
  ahead: number | null;
  offer: { id: string; state: string; expiresAt: string } | null;
  /** How the last offer ended, while none is live (docs/api-additions.md). */
  lastOffer: { id: string; state: 'expired' | 'withdrawn' | 'accepted' | 'cancelled'; resolvedAt: string | null } | null;
  /** A table can be offered now (a service of the party's day is running); false after service ends. */
  serviceRunning?: boolean;
  /** Why an `expired` entry is out of the queue: its day closed, or an offer ended its place (docs/api-additions.md). */
  outReason?: 'day-closed' | 'offer-ended' | null;
  /** The venue's messages reach this party (a provider is set up for one of its contacts); false in the pilot. */
  messaged?: boolean;
}

export interface OpenedSession {
  sessionToken: string | null;
  entryId: string;
  expiresAt: string;
}
