import type { Seating } from './types';

/**
 * What the page says, by the venue's seating. A table venue's party is offered a table and seated by
 * the host (the restaurant spec's words, kept as they are). A seat-pool venue (a workshop) holds
 * seats for a whole group, which accepts its hold before it expires; the organizer runs it, and
 * it seats nobody at a table (the workshop guide's and worksheet's words: held, confirmed, expired,
 * released, organizer, "a new position at the end"). A pool venue sends its groups no messages (its
 * joins and promotions record none), so its page never promises one.
 */
export interface Words {
  /** "Ada, party of 2" or "Ada, group of 3". */
  /** After the party's name (isolated on its own: a right-to-left name must not turn these words around). */
  partyOf: (size: number) => string;
  waiting: string;
  /** `waiting` where no message will reach the party (the pilot records them only): the page is how it hears. */
  waitingUnmessaged: string;
  /**
   * A waiting party's place, told on its page while it waits; null where it is not. A restaurant's
   * queueing email states the position once, at join time, and "nothing later re-promises it" (the
   * restaurant spec): its guesses by table kind move as parties of other sizes come and go. A seat
   * pool serves whole groups in strict order, so its place is a fact worth following.
   */
  place: ((position: number, ahead: number) => string) | null;
  offeredTitle: (size: number) => string;
  confirmWithin: string;
  expiresAt: string;
  confirmButton: string;
  confirmedTitle: (size: number) => string;
  confirmedNext: string;
  seatedTitle: string;
  seatedNext: string;
  leaveConfirmed: string;
  /** Asked before leaving while an offer or hold is live: a pool group is told its held seats go. */
  leaveHeld: (size: number) => string;
  keepHeld: string;
  keepConfirmed: string;
  cancelConfirmed: string;
  joinAgain: string;
  /**
   * Said on the "You have left the queue" card when this phone's leave released the group's seats
   * (held: its hold, else its confirmed seats), as the question before it promised; null where the
   * venue's words stay as they are (a restaurant's).
   */
  leftReleased: ((size: number, held: boolean) => string) | null;
  /** How an ended offer is told: lapsed, withdrawn (with the place kept, or not). */
  offerExpired: string;
  withdrew: string;
  withdrewPlaceKept: string;
  /** Who removes a party and gives new codes: "the host" or "the organizer". */
  staff: string;
  /** Who queues: a restaurant's "party", a seat pool's "group". */
  who: string;
}

const seats = (n: number): string => `${n} seat${n === 1 ? '' : 's'}`;

export const TABLE_WORDS: Words = {
  partyOf: (size) => `party of ${size}`,
  waiting: 'Your table will show here the moment it is ready, and we will message you too. Nothing to do until then.',
  waitingUnmessaged:
    'Your table will show here the moment it is ready. Keep this page open: no text or email will tell you. Nothing to do until then.',
  place: null,
  offeredTitle: () => 'Your table is ready',
  confirmWithin: 'Please confirm within',
  expiresAt: 'the offer expires at',
  confirmButton: 'Confirm my table',
  confirmedTitle: () => 'Your table is confirmed',
  confirmedNext: 'Go to the host stand; they will seat you.',
  seatedTitle: 'You are seated',
  seatedNext: 'Enjoy your meal.',
  leaveConfirmed: 'Leave the queue? Your table will be given up.',
  leaveHeld: () => 'Leave the queue? Your place will be given up.',
  keepHeld: 'Keep my place',
  keepConfirmed: 'Keep my table',
  cancelConfirmed: 'Cancel my table and leave',
  joinAgain: 'To join again, ask at the desk.',
  leftReleased: null,
  offerExpired: 'The offer expired and its table was released.',
  withdrew: 'The host withdrew the table offered to you.',
  withdrewPlaceKept: 'The host withdrew the table offered to you; you keep your place in the queue.',
  staff: 'the host',
  who: 'party',
};

const POOL_WAITING =
  'When seats are held for your whole group, they show here, with the time to accept them. Keep this page; nothing to do until then.';

export const POOL_WORDS: Words = {
  partyOf: (size) => `group of ${size}`,
  waiting: POOL_WAITING,
  // A pool's words promise no message already.
  waitingUnmessaged: POOL_WAITING,
  place: (position, ahead) =>
    ahead === 0
      ? 'Your group is next in line.'
      : `Place in line: ${position} (${ahead} ${ahead === 1 ? 'group' : 'groups'} ahead).`,
  offeredTitle: (size) => `${seats(size)} held for your group`,
  confirmWithin: 'Please accept within',
  expiresAt: 'the hold expires at',
  confirmButton: 'Accept the hold',
  confirmedTitle: (size) => `Your ${seats(size)} are confirmed`,
  confirmedNext: 'Nothing more to do. If your plans change, cancel here so the seats go to the next group.',
  // A pool group is never seated at a table; should a record say so, the page still speaks of seats.
  seatedTitle: 'Your seats are confirmed',
  seatedNext: 'Nothing more to do.',
  leaveConfirmed: 'Cancel your reservation? Your seats will be released to the next group.',
  leaveHeld: (size) => `Leave the queue? The ${seats(size)} held for your group will be released to the next group.`,
  keepHeld: 'Keep my seats',
  keepConfirmed: 'Keep my seats',
  cancelConfirmed: 'Cancel my seats and leave',
  joinAgain: 'To join again, ask the organizer; a new request gets a new position at the end of the queue.',
  leftReleased: (size, held) =>
    held
      ? `The ${seats(size)} held for your group were released to the next group.`
      : `Your ${seats(size)} were released to the next group.`,
  offerExpired: 'The hold expired and its seats were released.',
  withdrew: 'The organizer withdrew the seats held for you.',
  withdrewPlaceKept: 'The organizer withdrew the seats held for you; you keep your place in the queue.',
  staff: 'the organizer',
  who: 'group',
};

export const wordsFor = (seating: Seating | undefined): Words => (seating === 'pool' ? POOL_WORDS : TABLE_WORDS);
