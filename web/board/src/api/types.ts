// The parts of the API (shared/API.md) the board page reads. Only what it shows is typed.

export type EntryStatus = 'waiting' | 'offered' | 'confirmed' | 'seated' | 'cancelled' | 'expired';
export type OfferState = 'live' | 'accepted' | 'expired' | 'withdrawn' | 'cancelled';

export interface Session {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
}

export interface Venue {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  preset: 'restaurant' | 'workshop';
  sandbox: boolean;
  clock: string | null;
  /**
   * The venue's clock when it was read (`GET /v1/venues/:venueId` only): a sandbox's simulated clock,
   * else the server's. What the page judges service hours and dates by: a tablet's own clock may be
   * hours off.
   */
  now?: string;
  /**
   * With `now` (the venue's read only): whether a service window runs then, by the server's own rule
   * (the one joins are refused by), and the next instant that changes (null: none within a week).
   */
  serviceRunning?: boolean;
  serviceChangesAt?: string | null;
  /** The venue's read only: a seat pool's policy once anyone has joined (a change is refused; older servers: absent). */
  policyFixed?: boolean;
  published: boolean;
  queueEnabled: boolean;
  queuePartyCap: number;
  /** ISO 3166-1 alpha-2, where the venue has one: national phone numbers are read with it. */
  country?: string | null;
  version: number;
  policy: {
    seating: 'tables' | 'pool';
    holdSeconds: number;
    poolCapacity: number | null;
    order: 'strict' | 'host-pick';
    onOfferExpired: string;
    requireServiceWindow: boolean;
    oneEntryPerContact: boolean;
  };
}

export interface TableDef {
  id: string;
  label: string;
  capacity: number;
  x: number | null;
  y: number | null;
}

export interface Combination {
  id: string;
  tableIds: string[];
  capacity: number;
}

export interface ServiceWindow {
  id: string;
  days: number[];
  start: string;
  end: string;
  turnMinutes: number;
  depositRequired: boolean;
  /** What the hours do on the nights of the next twelve months the clocks skip or repeat their start or end. */
  clockChanges?: string[];
}

export interface LookedUp {
  entry: Entry;
  position: number | null;
  ahead: number | null;
  offer: Offer | null;
}

export interface Offer {
  id: string;
  entryId: string;
  reservationId: string;
  state: OfferState;
  expiresAt: string;
  tableIds: string[];
}

export interface Entry {
  id: string;
  name: string;
  partySize: number;
  status: EntryStatus;
  receivedAt: string;
  queueSequence: number;
  version: number;
  businessDate: string;
  /** Not in every answer: pool venues quote a position only. */
  quotedWaitMinutes?: number | null;
  /** Staff-only details (on the board only). */
  note?: string | null;
  tags?: string[];
}

/** Whether the venue's messages reach the party: failed, or no contact on a channel it sends on. */
export type Reach = 'ok' | 'failed' | 'none';

/**
 * `GET /v1/venues/:venueId/queue/:entryId` (host+), the part the party sheet reads: the entry as it
 * stands and how the venue reaches the party (never on the board snapshot).
 */
export interface EntryDetail {
  entry: Entry;
  contact: { email: string | null; phone: string | null };
}

export interface QueueRow extends Entry {
  /** The place in the whole list. */
  position: number;
  /** The position the party was told: counted among the same day's parties that fit its kind of table. */
  kindPosition?: number;
  reach?: Reach;
  offer?: Offer;
}

export interface PoolCounts {
  capacity: number;
  confirmed: number;
  held: number;
  available: number;
}

export type TableState = 'free' | 'held' | 'booked' | 'occupied';

/** Table venues: what each table is doing now, and who is planned on it or sitting at it. */
export interface TableRow {
  id: string;
  label: string;
  capacity: number;
  /** Place on the floor plan, percent; null until a manager places it. */
  x?: number | null;
  y?: number | null;
  state: TableState;
  /** Held: when the hold lapses; booked: when the booking starts; occupied: since when. */
  until: string | null;
  placement: {
    reservationId: string;
    name: string;
    partySize: number;
    state: string;
    slot: { start: string; end: string };
    /** An occupied table's open visit, what "clear" closes (not on every board yet). */
    visitId?: string;
  } | null;
}

export interface TableCounts {
  tables: number;
  free: number;
  held: number;
  booked: number;
  occupied: number;
}

/** A party with a confirmed table that has not been seated: it accepted an offer, or was booked. */
export interface ToSeatParty {
  reservationId: string;
  /** The queue entry it came from; null for a booking made at the desk. */
  entryId: string | null;
  name: string;
  partySize: number;
  tableIds: string[];
  slot: { start: string; end: string };
  /** When it was confirmed (the offer's acceptance, or the booking's creation). */
  confirmedAt: string;
}

export interface HeadExplanation {
  entryId: string;
  fits: boolean;
  reason: string | null;
}

export interface BoardSnapshot {
  version: number;
  now: string;
  venue: { id: string; name: string; seating: 'tables' | 'pool'; sandbox: boolean; timeZone: string };
  /** Pool venues: seats; table venues: tables by state. */
  counts: PoolCounts | TableCounts | null;
  tables: TableRow[];
  queue: QueueRow[];
  head: HeadExplanation | null;
  offers: Offer[];
  /** Table venues: confirmed parties not seated yet, due now or within the hour (older boards: absent). */
  toSeat?: ToSeatParty[];
  /** The guest page on PUBLIC_URL, or null (then the page's own origin). */
  queuePage?: string | null;
}

export interface JoinResult {
  entry: Entry;
  position: number;
  ahead: number;
  quotedWaitMinutes: number | null;
  quote: string;
  /** When the running service stops; the quoted wait runs past it when `pastServiceEnd` (older servers: absent). */
  serviceEndsAt?: string | null;
  pastServiceEnd?: boolean;
  queueToken: string | null;
}

export interface PromotionResult {
  offer: Offer | null;
  reason?: string;
}

export interface OpenedQueueSession {
  sessionToken: string | null;
  entryId: string;
  expiresAt: string;
}

export interface PartyQueueView {
  entry: Entry;
  position: number | null;
  ahead: number | null;
  offer: Offer | null;
}

export interface Message {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  template: string;
  subject: string;
  body: string;
  createdAt: string;
  status: 'recorded' | 'sending' | 'sent' | 'failed';
  failureReason?: string;
  /** Why a recorded message will not be sent (a sandbox venue, an ended offer, too old). */
  notSentReason?: string;
  entryId?: string;
  reservationId?: string;
  /** When the provider took it. */
  sentAt?: string;
  /** The party it was about, by its name now. */
  partyName?: string;
  /** Recorded, and no provider is set up for its channel: it will not be sent. */
  noProvider?: true;
}

/** A board push: `board.event` carries a type and data, `board.version` only the version. */
export interface BoardPush {
  venueId: string;
  version: number;
  type?: string;
  data?: Record<string, unknown>;
}

export type SubscribeAck =
  | { version: number; events: BoardPush[] }
  | { version: number; snapshot: BoardSnapshot }
  | { error: { code: string; message: string } };

/** A reservation as `GET /v1/venues/:venueId/reservations` lists it (the fields the board reads). */
export interface ReservationRow {
  id: string;
  entryId: string | null;
  kind: 'pool' | 'tables';
  name: string;
  partySize: number;
  state: 'HELD' | 'CONFIRMED' | 'SEATED' | 'COMPLETED' | 'CANCELLED' | 'EXPIRED';
  createdAt: string;
  updatedAt: string;
  /** When it became CONFIRMED (null: never); `updatedAt` moves with any later change. */
  confirmedAt: string | null;
}
