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
  policy: { seating: 'tables' | 'pool'; holdSeconds: number; poolCapacity: number | null };
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
}

export interface QueueRow extends Entry {
  position: number;
  offer?: Offer;
}

export interface PoolCounts {
  capacity: number;
  confirmed: number;
  held: number;
  available: number;
}

export type TableState = 'free' | 'held' | 'booked' | 'occupied';

/** Table venues: one row per table (shape per the tables work still to come; read defensively). */
export interface TableRow {
  id: string;
  label: string;
  capacity: number;
  state: TableState;
  /** For a held table: when the hold lapses. */
  heldUntil?: string | null;
  /** For a booked table: when the booking starts. */
  bookedAt?: string | null;
  /** Who is planned on it or sitting at it. */
  placement?: { name?: string; partySize?: number; entryId?: string; reservationId?: string } | null;
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
  counts: PoolCounts | null;
  tables: TableRow[];
  queue: QueueRow[];
  head: HeadExplanation | null;
  offers: Offer[];
}

export interface JoinResult {
  entry: Entry;
  position: number;
  ahead: number;
  quotedWaitMinutes: number | null;
  quote: string;
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
  to: string;
  template: string;
  subject: string;
  body: string;
  createdAt: string;
  status: string;
  entryId?: string;
  reservationId?: string;
}

/** A board push: `board.event` carries a type and data, `board.version` only the version. */
export interface BoardPush {
  venueId: string;
  version: number;
  type?: string;
}

export type SubscribeAck =
  | { version: number; events: BoardPush[] }
  | { version: number; snapshot: BoardSnapshot }
  | { error: { code: string; message: string } };
