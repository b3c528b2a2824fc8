import type { PartyView } from './types';

/**
 * How the party's last offer ended, in the words its message used (libs/outbox announcements): the
 * spec's for a lapsed hold, the withdrawal email's for a host's withdrawal. The page says it in the
 * party's state, so a guest who looked away while the offer ended still sees why it is gone.
 */
const OFFER_EXPIRED = 'The offer expired and its table was released.';
const LAPSE_PLACE_KEPT = 'Nothing lost — the place was kept; watch for the next offer.';
const HOST_WITHDREW = 'The host withdrew the table offered to you.';
const HOST_WITHDREW_PLACE_KEPT = 'The host withdrew the table offered to you; you keep your place in the queue.';

/** Back in the queue after an offer ended without a table: what ended it, until the next offer. */
export function BackInQueue({ last }: { last: PartyView['lastOffer'] }) {
  const said =
    last?.state === 'expired'
      ? `${OFFER_EXPIRED} ${LAPSE_PLACE_KEPT}`
      : last?.state === 'withdrawn'
        ? HOST_WITHDREW_PLACE_KEPT
        : null;
  if (!said) return null;
  return (
    <p class="strong" data-testid="offer-ended" data-ended={last?.state}>
      {said}
    </p>
  );
}

/** The queue closed with its business day while the party still waited (no offer is blamed for it). */
const DAY_CLOSED =
  'The queue closed at the end of the day, and your place in it ended. To join again, ask at the desk when service is running.';
const JOIN_AGAIN = 'To join again, ask at the desk.';

/**
 * Out of the queue (status `expired`), in what actually ended it (`outReason`): the day's close, or an
 * offer under a leave-queue policy, where a host's withdrawal is not the guest's lapsed hold. An
 * entry with no ended offer to name is not told of one.
 */
export function OutOfQueue({ last, reason }: { last: PartyView['lastOffer']; reason: PartyView['outReason'] }) {
  if (reason === 'day-closed' || !last || (last.state !== 'expired' && last.state !== 'withdrawn')) {
    const why = reason === 'day-closed' ? 'day-closed' : 'none';
    return (
      <p data-testid="offer-ended" data-ended={why}>
        {reason === 'day-closed' ? DAY_CLOSED : JOIN_AGAIN}
      </p>
    );
  }
  return (
    <p data-testid="offer-ended" data-ended={last.state}>
      {last.state === 'withdrawn' ? HOST_WITHDREW : OFFER_EXPIRED} {JOIN_AGAIN}
    </p>
  );
}
