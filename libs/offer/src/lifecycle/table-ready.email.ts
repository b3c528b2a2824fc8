export const TABLE_READY_TEMPLATE = 'table-ready';

const unit = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * "5 minutes", "1 minute", "25 minutes 30 seconds", "45 seconds": a hold length in the words a
 * guest (and a manager on Set up and Messages) reads. Never rounded, so it promises no time the
 * hold does not give; never "1530 seconds" for a hold of 25½ minutes.
 */
export function holdLengthWords(holdSeconds: number): string {
  const total = Math.max(0, Math.floor(holdSeconds));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes === 0) return unit(seconds, 'second');
  return seconds === 0 ? unit(minutes, 'minute') : `${unit(minutes, 'minute')} ${unit(seconds, 'second')}`;
}

/**
 * "Your table is ready — {venue}": the hold's email, in the spec's words. The spec's "within 5
 * minutes" is its five-minute hold: the venue's own hold length is said instead. The deadline is a
 * venue-local stamp with its zone, unambiguous on the night the clocks fall back.
 */
export function tableReadyEmail(f: { venueName: string; partyName: string; holdSeconds: number; expiresAtLocal: string }): {
  subject: string;
  body: string;
} {
  return {
    subject: `Your table is ready — ${f.venueName}`,
    body: [
      `Hello ${f.partyName},`,
      '',
      `Your table is ready — ${f.venueName}`,
      `Please confirm within ${holdLengthWords(f.holdSeconds)} — the offer expires at ${f.expiresAtLocal}.`,
      'Confirm through your queue link so we can seat you.',
    ].join('\n'),
  };
}
