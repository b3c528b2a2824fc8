/**
 * The short (text message) forms of the guest messages. They carry the same facts as the emails in
 * fewer words: the queueing text states the join position once, as the email does; the table-ready
 * text gives the venue, the venue-local deadline and how to confirm. The queue link never carries
 * the token: the party's own phone keeps that (see the /q/ page).
 */

export function queueJoinedText(f: {
  venueName: string;
  partySize: number;
  position: number;
  waitMinutes: number | null;
  joinedAt: string;
  link: string | null;
}): string {
  return [
    `${f.venueName}: you are in the queue for ${f.partySize} (joined ${f.joinedAt}).`,
    `Queue position when you joined: ${f.position}.`,
    ...(f.waitMinutes === null ? [] : [`Quoted wait about ${f.waitMinutes} min (approx), an estimate, not a promise.`]),
    'We will text you when your table is ready.',
    ...(f.link ? [`Your queue page: ${f.link}`] : []),
  ].join(' ');
}

export function tableReadyText(f: {
  venueName: string;
  /** The hold in words ("10 minutes", "90 seconds"): never rounded up, so it promises no time the hold does not give. */
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
