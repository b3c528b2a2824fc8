/**
 * What a party hears when its offer ends without a table, when it leaves the queue, or when the host
 * removes it. None of them re-promises a position: a kept place is said to be kept, never given a number.
 */

/**
 * `queue-left`: the party left by itself (from its page). `queue-removed`: the host took it off the
 * queue (its entry, or its held or confirmed table, a no-show): it did not choose to leave, so it is
 * not told "You have left the queue".
 */
export type Announcement = 'offer-withdrawn' | 'offer-lapsed' | 'queue-left' | 'queue-removed';

export interface AnnouncementFacts {
  venueName: string;
  partyName: string;
  /** Back to waiting with its original place (the venue's keep-place policy), or out of the queue. */
  placeKept: boolean;
  link: string | null;
  /** The table a removal released, if any: the one offered (held) or the one the party had confirmed. */
  table?: 'offered' | 'confirmed' | null;
}

export interface AnnouncementText {
  subject: string;
  body: string;
  text: string;
}

/** The spec's words for a lapsed offer (WAITLIST_OFFER_EXPIRED and what to do about it). */
export const OFFER_EXPIRED_WORDS = 'The offer expired and its table was released.';
export const LAPSE_NOTHING_LOST = 'Nothing lost — the place was kept; watch for the next offer.';
export const PLACE_NOT_KEPT = 'You are no longer in the queue; ask the desk if you would like to join again.';

export function announcement(kind: Announcement, f: AnnouncementFacts): AnnouncementText {
  const page = f.link && f.placeKept ? [`Your queue page: ${f.link}`] : [];
  switch (kind) {
    case 'offer-withdrawn': {
      const said = f.placeKept
        ? 'The host withdrew the table offered to you; you keep your place in the queue.'
        : `The host withdrew the table offered to you. ${PLACE_NOT_KEPT}`;
      return {
        subject: `Your table offer was withdrawn — ${f.venueName}`,
        body: [
          `Hello ${f.partyName},`,
          '',
          said,
          ...(f.placeKept ? ['We will message you when a table is ready.'] : []),
          ...page,
        ].join('\n'),
        text: [`${f.venueName}: ${said}`, ...page].join(' '),
      };
    }
    case 'offer-lapsed': {
      const said = f.placeKept ? [OFFER_EXPIRED_WORDS, LAPSE_NOTHING_LOST] : [OFFER_EXPIRED_WORDS, PLACE_NOT_KEPT];
      return {
        subject: `Your table offer lapsed — ${f.venueName}`,
        body: [`Hello ${f.partyName},`, '', ...said, ...page].join('\n'),
        text: [`${f.venueName}:`, ...said, ...page].join(' '),
      };
    }
    case 'queue-left': {
      const said = `This confirms that you are no longer in the queue at ${f.venueName}, and any table held for you is released.`;
      return {
        subject: `You have left the queue — ${f.venueName}`,
        body: [`Hello ${f.partyName},`, '', said, 'To join again, ask at the desk.'].join('\n'),
        text: `${f.venueName}: ${said.replace(` at ${f.venueName}`, '')} To join again, ask at the desk.`,
      };
    }
    case 'queue-removed': {
      const table =
        f.table === 'offered'
          ? ', and the table offered to you is released'
          : f.table === 'confirmed'
            ? ', and the table confirmed for you is released'
            : '';
      return {
        subject: `${f.venueName} removed you from the queue`,
        body: [
          `Hello ${f.partyName},`,
          '',
          `The host at ${f.venueName} removed you from the queue${table}.`,
          'If you think this is a mistake, or would like to join again, ask at the desk.',
        ].join('\n'),
        text: `${f.venueName}: the host removed you from the queue${table}. If you think this is a mistake, or to join again, ask at the desk.`,
      };
    }
  }
}
