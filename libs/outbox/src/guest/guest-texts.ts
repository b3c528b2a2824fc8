/**
 * The short (text message) forms of the guest messages. They carry the same facts as the emails in
 * fewer words: the queueing text states the join position once, as the email does; the table-ready
 * text gives the venue, the venue-local deadline and how to confirm. The queue link never carries
 * the token: the party's own phone keeps that (see the /q/ page).
 */

import { waitShort } from './wait-words.js';

export { waitInWords, waitShort } from './wait-words.js';

/**
 * Told beside a quoted wait that runs past the end of service, in the queueing email and text: no
 * table can be offered after it, and the quote alone would read as a promise the venue cannot keep.
 */
export const pastServiceEndLine = (serviceEndsAt: string): string =>
  `Service ends at ${serviceEndsAt}, before this wait is over: we may not be able to seat you.`;

export function queueJoinedText(f: {
  venueName: string;
  partySize: number;
  position: number;
  waitMinutes: number | null;
  joinedAt: string;
  /** When service ends (venue-local, with its zone), given only when the quoted wait runs past it. */
  serviceEndsAt?: string | null;
  link: string | null;
}): string {
  return [
    `${f.venueName}: you are in the queue for ${f.partySize} (joined ${f.joinedAt}).`,
    `Queue position when you joined: ${f.position}.`,
    ...(f.waitMinutes === null ? [] : [`Quoted wait about ${waitShort(f.waitMinutes)} (approx), an estimate, not a promise.`]),
    ...(f.serviceEndsAt ? [pastServiceEndLine(f.serviceEndsAt)] : []),
    'We will text you when your table is ready.',
    ...(f.link ? [`Your queue page: ${f.link}`] : []),
  ].join(' ');
}

export function tableReadyText(f: {
  venueName: string;
  /** The hold in words ("10 minutes", "1 minute 30 seconds"): never rounded up, so it promises no time the hold does not give. */
  holdLength: string;
  expiresAtLocal: string;
  link: string | null;
}): string {
  return [
    `${f.venueName}: your table is ready.`,
    `Please confirm within ${f.holdLength}, by ${f.expiresAtLocal},`,
    f.link ? `on your queue page (${f.link}) or with the host.` : 'through your queue link or with the host.',
  ].join(' ');
}
