import type { BoardSnapshot, EntryStatus, QueueRow } from '../api/types';
import { api } from '../state/session';
import { say } from '../state/notice';
import { wallNow } from '../state/clock';
import { minutes } from '../format';
import { ActButton } from './act-button';
import { Countdown } from './countdown';
import { ReachMarker } from './reach-marker';

const STATUS: Record<EntryStatus, string> = {
  waiting: 'Waiting',
  offered: 'Offered',
  confirmed: 'Confirmed',
  seated: 'Seated',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  /** An entry opened at the desk (redeemed token): shown highlighted. */
  openedEntryId: string | null;
  afterAct: () => Promise<void>;
  /** Table venues: open the table picker for a waiting party. */
  onOfferTables: (row: QueueRow) => void;
}

/** The queue in order: who, how many, how long against the quote, and what the host can do now. */
export function QueuePanel({ board, venueNow, openedEntryId, afterAct, onOfferTables }: Props) {
  return (
    <section class="panel queue" aria-label="Queue">
      <h2>
        Queue <span class="muted">({board.queue.length})</span>
      </h2>
      {board.queue.length === 0 ? (
        <p class="empty">Nobody is waiting.</p>
      ) : (
        <ol class="rows" data-testid="queue">
          {board.queue.map((row) => (
            <Row
              key={row.id}
              row={row}
              board={board}
              venueNow={venueNow}
              opened={row.id === openedEntryId}
              afterAct={afterAct}
              onOfferTables={onOfferTables}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function waitedText(row: QueueRow, now: number): string {
  const waited = minutes(now - Date.parse(row.receivedAt));
  if (typeof row.quotedWaitMinutes === 'number') return `waited ${waited} of ~${row.quotedWaitMinutes} min quoted`;
  return `waited ${waited}`;
}

function Row({
  row,
  board,
  venueNow,
  opened,
  afterAct,
  onOfferTables,
}: {
  row: QueueRow;
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  opened: boolean;
  afterAct: () => Promise<void>;
  onOfferTables: (row: QueueRow) => void;
}) {
  const venueId = board.venue.id;
  const offer = row.offer?.state === 'live' ? row.offer : undefined;
  const isHead = board.head?.entryId === row.id;
  const labels = (offer?.tableIds ?? []).map((id) => board.tables.find((t) => t.id === id)?.label ?? '?');
  const act = async (path: string, done: string): Promise<void> => {
    await api.post(`/v1/venues/${venueId}/${path}`);
    say('ok', done);
    await afterAct();
  };
  return (
    <li
      class={`row status-${row.status}${opened ? ' opened' : ''}`}
      data-testid="entry"
      data-entry-id={row.id}
      data-status={row.status}
      data-offer-id={offer?.id}
    >
      {/* The big number is the one the party heard (its table-kind position); the list place is under it. */}
      <div
        class="pos"
        data-testid="entry-position"
        aria-label={`position ${row.kindPosition ?? row.position} for its table, number ${row.position} in the list`}
      >
        {row.kindPosition ?? row.position}
        {row.kindPosition !== undefined && row.kindPosition !== row.position ? (
          <small class="pos-list" title="place in the whole list">
            #{row.position} in list
          </small>
        ) : null}
      </div>
      <div class="who">
        <div class="name">
          {row.name}
          <ReachMarker reach={row.reach} />
        </div>
        <div class="meta">
          party of {row.partySize} · {waitedText(row, venueNow(wallNow.value))}
          {isHead && board.head && !board.head.fits && board.head.reason ? ` · ${board.head.reason}` : ''}
        </div>
      </div>
      <div class="state">
        <span class={`chip chip-${row.status}`}>{STATUS[row.status]}</span>
        {offer && <Countdown until={offer.expiresAt} venueNow={venueNow} stopped={board.venue.sandbox} />}
        {labels.length > 0 && <span class="muted">{labels.join(' + ')}</span>}
      </div>
      <div class="acts">
        {board.venue.seating === 'tables' && row.status === 'waiting' && (
          <button type="button" class="btn btn-primary" data-testid="offer-tables" onClick={() => onOfferTables(row)}>
            Offer tables
          </button>
        )}
        {offer && (
          <>
            <ActButton kind="primary" testId="accept" onAct={() => act(`offers/${offer.id}/accept`, `Accepted for ${row.name}.`)}>
              Accept
            </ActButton>
            <ActButton testId="withdraw" onAct={() => act(`offers/${offer.id}/withdraw`, `Offer to ${row.name} withdrawn.`)}>
              Withdraw
            </ActButton>
          </>
        )}
        <ActButton
          kind="danger"
          testId="cancel"
          confirm="Tap again to cancel"
          onAct={() => act(`queue/${row.id}/cancel`, `${row.name} left the queue.`)}
        >
          Cancel
        </ActButton>
      </div>
    </li>
  );
}
