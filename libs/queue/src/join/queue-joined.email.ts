import { pastServiceEndLine, waitInWords } from '@hostboard/outbox';

export interface QueueJoinedFacts {
  venueName: string;
  partyName: string;
  partySize: number;
  position: number;
  waitMinutes: number | null;
  /** Venue-local with its zone, e.g. "7:42 PM CST": on the night clocks fall back, 1:33 AM happens twice. */
  joinedAt: string;
  /** When service ends, venue-local with its zone, given only when the quoted wait runs past it. */
  serviceEndsAt?: string | null;
}

export const QUEUE_JOINED_TEMPLATE = 'queue-joined';

/**
 * The queueing email. It states the position once, as it was at join time ("Queue position when
 * you joined: {n}"), and promises nothing later: the table-ready email is the moment that matters.
 */
export function queueJoinedEmail(f: QueueJoinedFacts): { subject: string; body: string } {
  const lines = [
    `Hello ${f.partyName},`,
    '',
    `You are in the queue at ${f.venueName} for a party of ${f.partySize} (joined at ${f.joinedAt}).`,
    `Queue position when you joined: ${f.position}`,
    ...(f.waitMinutes === null
      ? []
      : [`Quoted wait: about ${waitInWords(f.waitMinutes)} (approx). This is an estimate, not a promise.`]),
    ...(f.serviceEndsAt ? [pastServiceEndLine(f.serviceEndsAt)] : []),
    '',
    'We will email you when your table is ready.',
  ];
  return { subject: `You are in the queue — ${f.venueName}`, body: lines.join('\n') };
}
