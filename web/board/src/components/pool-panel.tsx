import type { BoardSnapshot, PromotionResult } from '../api/types';
import { api } from '../state/session';
import { say } from '../state/notice';
import { ActButton } from './act-button';

/** A workshop's seats: confirmed, held and available, and why the head of the queue can or cannot go next. */
export function PoolPanel({ board, afterAct }: { board: BoardSnapshot; afterAct: () => Promise<void> }) {
  if (board.venue.seating !== 'pool' || !board.counts || !('capacity' in board.counts)) return null;
  const counts = board.counts;
  const head = board.head ? board.queue.find((r) => r.id === board.head?.entryId) : undefined;
  const promote = async (): Promise<void> => {
    const result = await api.post<PromotionResult>(`/v1/venues/${board.venue.id}/promotions`);
    // Nobody to promote is an answer, not a failure: the API says why.
    // Seats are held for the group (its row says "Seats held"): the pool offers no table.
    const held = result.offer ? board.queue.find((r) => r.id === result.offer?.entryId) : undefined;
    if (result.offer) say('ok', held ? `Seats held for ${held.name} (${held.partySize}).` : 'Seats held for the next group.');
    else say('info', result.reason ?? 'Nobody can be promoted now.');
    await afterAct();
  };
  return (
    <section class="panel pool" aria-label="Seats">
      <h2>
        Seats <span class="muted">of {counts.capacity}</span>
      </h2>
      <dl class="counts" data-testid="counts">
        <div>
          <dt>Confirmed</dt>
          <dd data-testid="count-confirmed">{counts.confirmed}</dd>
        </div>
        <div>
          <dt>Held</dt>
          <dd data-testid="count-held">{counts.held}</dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd data-testid="count-available">{counts.available}</dd>
        </div>
      </dl>
      <p class="head" data-testid="head">
        {!board.head
          ? 'Nobody is waiting for seats.'
          : board.head.fits
            ? `Next: ${head?.name ?? 'the oldest group'} (group of ${head?.partySize ?? '?'}) fits.`
            : (board.head.reason ?? 'The oldest group does not fit yet.')}
      </p>
      {/* Off while nobody waits: a tap answered "The queue is empty." under a queue listing the groups
          whose seats are held. A head that does not fit still takes a tap, answered with why. */}
      <ActButton kind="primary" testId="promote" onAct={promote} disabled={!board.head}>
        Promote next group
      </ActButton>
    </section>
  );
}
