import type { EntryStatus } from './api/types';
import { plural } from './format';

type Seating = 'tables' | 'pool';

/**
 * What the board says, by the venue's seating (as web/guest/src/words.ts does for the guest page). A
 * restaurant queues parties, offers them a table and seats them; a seat pool (a workshop) queues
 * groups, holds seats for a whole group and confirms them: no table, no seating (the workshop guide's
 * words: held, confirmed, expired, released). Choices of what to show live in the views; only words here.
 */
export interface BoardWords {
  /** Who queues: "party" or "group". */
  who: 'party' | 'group';
  /** "parties" or "groups". */
  whoPlural: string;
  /** What lapses: "offer" or "hold" (singular; `plural()` makes the count). */
  hold: 'offer' | 'hold';
  /** The queue filter of entries holding one: "Offered" or "Held". */
  heldFilter: string;
  /** A queue row's status chip. */
  status: Record<EntryStatus, string>;
  /** The desk lookup's "Number 3 in line, …" status. */
  lookupStatus: Record<string, string>;
  /** The lookup's live hold with no table named: "Held for them: " or "3 seats held for them: ". */
  heldForThem: (size: number) => string;
  /** After accepting for a party: "Ada accepted: …". */
  acceptedNext: string;
  /** "Offer to Ada" or "Hold for Ada", taken back. */
  takenBack: (name: string) => string;
  /** "table offer to Ada" or "hold for Ada", ran out. */
  ranOut: (name: string) => string;
  /** Told when a party leaves from its phone while holding: their table or seats are free again. */
  leftFreed: string;
  /** A party's own acceptance, pushed from another device. */
  confirmedBy: (name: string, where: string) => string;
  /** The sweep's answer, by how many ran out. */
  swept: (n: number) => string;
  /** The party sheet's Remove, asking for the second tap: a group holding seats is told they go. */
  removeAsk: (status: EntryStatus, size: number) => string;
  /** Told once removed, by what the removal ended: `confirmed` when it cancelled their booking. */
  removed: (name: string, status: EntryStatus, size: number) => string;
  /** The sweep button's two lines. */
  sweepLabel: [string, string];
  /** The Messages tab with none sent. */
  noMessages: string;
  /** Why the desk's party-size stepper stops at the venue's cap (a pool's: its number of seats). */
  sizeCap: (n: number) => string;
  /** The party sheet of one the queue no longer lists (another screen or the party acted): why. */
  entryGone: (name: string, toSeat: boolean) => string;
  /** Set up's stepper for the hold length. */
  holdMinutesLabel: string;
  /**
   * The party sheet's first line, where the party stands now: waiting (its place as the row's big
   * number gives it), offered ("Table Nook 5" or "", the time the hold ends) or booked.
   */
  standing: {
    waiting: (told: number) => string;
    offered: (tables: string, until: string, size: number) => string;
    booked: (tables: string) => string;
  };
}

const TABLE_STATUS: Record<EntryStatus, string> = {
  waiting: 'Waiting',
  offered: 'Table offered',
  confirmed: 'Accepted, to be seated',
  seated: 'Seated',
  cancelled: 'Left',
  expired: 'Offer lapsed',
};

const TABLE_LOOKUP: Record<string, string> = {
  waiting: 'waiting in line',
  offered: 'a table is offered',
  confirmed: 'accepted, to be seated',
  seated: 'seated',
  cancelled: 'left the queue',
  expired: 'the offer lapsed',
};

export const TABLE_WORDS: BoardWords = {
  who: 'party',
  whoPlural: 'parties',
  hold: 'offer',
  heldFilter: 'Offered',
  status: TABLE_STATUS,
  lookupStatus: TABLE_LOOKUP,
  heldForThem: () => 'Held for them: ',
  acceptedNext: 'to be seated.',
  takenBack: (name) => `Offer to ${name}`,
  ranOut: (name) => `table offer to ${name}`,
  leftFreed: ' Their table is free again.',
  confirmedBy: (name, where) => `${name} confirmed${where}`,
  swept: (n) =>
    n === 0
      ? 'Swept: no offer had run out.'
      : `Swept: ${plural(n, 'offer')} had run out and ${n === 1 ? 'is' : 'are'} now released.`,
  // A party offered a table (perhaps from another screen while the sheet was open) loses it too; one
  // that accepted it loses its booking.
  removeAsk: (status) =>
    status === 'offered'
      ? 'Tap again: ends their table offer'
      : status === 'confirmed'
        ? 'Tap again: cancels their booked table'
        : 'Tap again to remove',
  removed: (name, status) =>
    status === 'offered'
      ? `${name} was removed from the queue; the table offered to them is free again.`
      : status === 'confirmed'
        ? `${name} was removed from the queue; the table booked for them is free again.`
        : `${name} was removed from the queue.`,
  sweepLabel: ['Sweep', 'expired offers'],
  noMessages: 'No messages sent to guests yet.',
  sizeCap: (n) => `Parties of up to ${n} join here.`,
  entryGone: (name, toSeat) =>
    toSeat
      ? `${name} is no longer in the queue: they accepted their table and are listed under To be seated.`
      : `${name} is no longer in the queue: they left, or another screen removed or seated them.`,
  holdMinutesLabel: 'Minutes a table is held for a party',
  standing: {
    waiting: (told) => `Waiting, number ${told} in line`,
    offered: (tables, until) => `Offered ${tables || 'a table'}, held until ${until}`,
    booked: (tables) => `Booked ${tables || 'a table'}, to be seated`,
  },
};

/** A group held or confirmed has seats to release; a waiting one has none (the guide). */
const holdsSeats = (status: EntryStatus): boolean => status === 'offered' || status === 'confirmed';

export const POOL_WORDS: BoardWords = {
  who: 'group',
  whoPlural: 'groups',
  hold: 'hold',
  heldFilter: 'Held',
  status: { ...TABLE_STATUS, offered: 'Seats held', confirmed: 'Seats confirmed', expired: 'Hold lapsed' },
  lookupStatus: {
    ...TABLE_LOOKUP,
    offered: 'seats are held for them',
    confirmed: 'accepted, seats confirmed',
    expired: 'the hold lapsed',
  },
  heldForThem: (size) => `${plural(size, 'seat')} held for them: `,
  acceptedNext: 'their seats are confirmed.',
  takenBack: (name) => `Hold for ${name}`,
  ranOut: (name) => `hold for ${name}`,
  leftFreed: ' Their seats are released.',
  // A group's seats are confirmed: nobody is seated at a table.
  confirmedBy: (name) => `${name} confirmed their seats.`,
  swept: (n) =>
    n === 0
      ? 'No hold had run out: nothing to release.'
      : `Released: ${plural(n, 'hold')} had run out; ${n === 1 ? 'its' : 'their'} seats are free again.`,
  removeAsk: (status, size) => (holdsSeats(status) ? `Tap again: releases ${plural(size, 'seat')}` : 'Tap again to remove'),
  removed: (name, status, size) =>
    holdsSeats(status)
      ? `${name} was removed from the queue; their ${plural(size, 'seat')} ${size === 1 ? 'is' : 'are'} released.`
      : `${name} was removed from the queue.`,
  sweepLabel: ['Release', 'expired holds'],
  // A seat pool records no guest message: its joins, holds, lapses and leaves send none.
  noMessages: 'No messages: a seat pool sends its groups no texts or emails. Each group follows its place on its queue page.',
  holdMinutesLabel: 'Minutes seats are held for a group',
  sizeCap: (n) => `Groups of up to ${n} join: there ${n === 1 ? 'is 1 seat' : `are ${n} seats`}.`,
  entryGone: (name) =>
    `${name} is no longer in the queue: their seats were confirmed, they left, or another screen removed them.`,
  standing: {
    waiting: (told) => `Waiting, number ${told} in line`,
    offered: (_tables, until, size) => `${plural(size, 'seat')} held for them until ${until}`,
    booked: () => 'Seats confirmed',
  },
};

/** The board's words for a venue's seating; a venue not read yet is worded as a restaurant. */
export const boardWords = (seating: Seating | undefined): BoardWords => (seating === 'pool' ? POOL_WORDS : TABLE_WORDS);
