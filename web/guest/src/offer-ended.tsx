import type { PartyView } from './types';
import type { Words } from './words';

/**
 * How the party's last offer ended, in the words its message used (libs/outbox announcements): the
 * spec's for a lapsed hold, the withdrawal email's for a host's withdrawal (a seat-pool venue's in
 * its own words: words.ts). The page says it in the party's state, so a guest who looked away while
 * the offer ended still sees why it is gone.
 */
const LAPSE_PLACE_KEPT = 'Nothing lost — the place was kept; watch for the next offer.';

/** Back in the queue after an offer ended without a table (or seats): what ended it, until the next offer. */
export function BackInQueue({ last, words }: { last: PartyView['lastOffer']; words: Words }) {
  const said =
    last?.state === 'expired'
      ? `${words.offerExpired} ${LAPSE_PLACE_KEPT}`
      : last?.state === 'withdrawn'
        ? words.withdrewPlaceKept
        : null;
  if (!said) return null;
  return (
    <p class="strong" data-testid="offer-ended" data-ended={last?.state}>
      {said}
    </p>
  );
}

/** The queue closed with its business day while the party still waited (no offer is blamed for it). */
export const DAY_CLOSED =
  'The queue closed at the end of the day, and your place in it ended. To join again, ask at the desk when service is running.';

/**
 * Out of the queue (status `expired`), in what actually ended it (`outReason`): the day's close, or an
 * offer under a leave-queue policy, where a host's withdrawal is not the guest's lapsed hold. An
 * entry with no ended offer to name is not told of one.
 */
export function OutOfQueue({
  last,
  reason,
  words,
}: {
  last: PartyView['lastOffer'];
  reason: PartyView['outReason'];
  words: Words;
}) {
  if (reason === 'day-closed' || !last || (last.state !== 'expired' && last.state !== 'withdrawn')) {
    const why = reason === 'day-closed' ? 'day-closed' : 'none';
    return (
      <p data-testid="offer-ended" data-ended={why}>
        {reason === 'day-closed' ? DAY_CLOSED : words.joinAgain}
      </p>
    );
  }
  return (
    <p data-testid="offer-ended" data-ended={last.state}>
      {last.state === 'withdrawn' ? words.withdrew : words.offerExpired} {words.joinAgain}
    </p>
  );
}
