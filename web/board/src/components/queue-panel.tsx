import { useState } from 'preact/hooks';
import type { BoardSnapshot, QueueRow } from '../api/types';
import { api } from '../state/session';
import { say } from '../state/notice';
import { wallSecond } from '../state/clock';
import { offline } from '../state/offline';
import { ownAct } from '../state/own-acts';
import { duration, plural, waitShort } from '../format';
import { tagLabel } from '../tags';
import { boardWords } from '../words';
import { ActButton } from './act-button';
import { clearOfToasts } from './toasts';
import { Countdown } from './countdown';
import { ReachMarker } from './reach-marker';

type Filter = 'all' | 'waiting' | 'offered';

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  /** An entry found at the desk by its code: shown highlighted. */
  openedEntryId: string | null;
  afterAct: () => Promise<void>;
  onOfferTables: (row: QueueRow) => void;
  onDetails: (row: QueueRow) => void;
  /**
   * A withdrawn offer ends the party's place (the `leave-queue` policy, a seat pool's default): taking
   * it back asks for a second tap, as every act that cannot be undone does.
   */
  leavesQueue: boolean;
}

/** The queue in order, searchable: who, how many, how long against what they were told, what to do next. */
export function QueuePanel({ board, venueNow, openedEntryId, afterAct, onOfferTables, onDetails, leavesQueue }: Props) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const q = search.trim().toLowerCase();
  const rows = board.queue.filter(
    (r) =>
      (filter === 'all' || r.status === filter) &&
      (q === '' || r.name.toLowerCase().includes(q) || (r.note ?? '').toLowerCase().includes(q)),
  );
  // A workshop's queue holds groups (its seats panel and Set up say so), a restaurant's parties.
  const { who, heldFilter } = boardWords(board.venue.seating);
  const n = (s: Filter): number => (s === 'all' ? board.queue.length : board.queue.filter((r) => r.status === s).length);
  return (
    <section class="panel queue" aria-label="Queue">
      {/* Heading, search and filters share one line where the panel is wide enough. */}
      <div class="panel-head">
        <h2>
          Queue <span class="muted">({board.queue.length})</span>
        </h2>
        <input
          class="search"
          type="search"
          name="search"
          placeholder={`Find a ${who}`}
          aria-label={`Find a ${who} by name or note`}
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <div class="filters" role="group" aria-label="Show">
          {(['all', 'waiting', 'offered'] as Filter[]).map((f) => (
            <button
              key={f}
              type="button"
              class={`chip-btn${filter === f ? ' on' : ''}`}
              aria-pressed={filter === f}
              data-filter={f}
              onClick={() => setFilter(f)}
            >
              {/* A seat pool holds seats (its rows and counts say held), it offers no table. */}
              {f === 'all' ? 'All' : f === 'waiting' ? 'Waiting' : heldFilter} {n(f)}
            </button>
          ))}
        </div>
      </div>
      {board.queue.length === 0 ? (
        <p class="empty">Nobody is waiting.</p>
      ) : rows.length === 0 ? (
        <p class="empty">No {who} matches.</p>
      ) : (
        <ol class="rows" data-testid="queue">
          {rows.map((row) => (
            <Row
              key={row.id}
              row={row}
              board={board}
              venueNow={venueNow}
              opened={row.id === openedEntryId}
              afterAct={afterAct}
              onOfferTables={onOfferTables}
              onDetails={onDetails}
              leavesQueue={leavesQueue}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** What the host is told after taking an offer back: a seat pool's is a hold; a party out of the queue is said so. */
export function takenBack(board: BoardSnapshot, name: string, leavesQueue: boolean): string {
  return `${boardWords(board.venue.seating).takenBack(name)} taken back.${leavesQueue ? ' They have left the queue.' : ''}`;
}

function waitedText(row: QueueRow, now: number): string {
  const waited = duration((now - Date.parse(row.receivedAt)) / 60_000);
  // Short, to sit on the row's second line beside the offer: "waited 12 min, told ~90 min", the wait
  // in the words the party's text and token card use (waitShort: "told ~22 h 30 min", never "~1350").
  if (typeof row.quotedWaitMinutes === 'number') return `waited ${waited}, told ~${waitShort(row.quotedWaitMinutes)}`;
  return `waited ${waited}`;
}

/** "waited 12 min, told ~90 min": its own component, so that each second re-renders this text, not the row. */
function Waited({ row, venueNow }: { row: QueueRow; venueNow: (wall: number) => number }) {
  return <>{waitedText(row, venueNow(wallSecond.value))}</>;
}

function Row({
  row,
  board,
  venueNow,
  opened,
  afterAct,
  onOfferTables,
  onDetails,
  leavesQueue,
}: {
  row: QueueRow;
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  opened: boolean;
  afterAct: () => Promise<void>;
  onOfferTables: (row: QueueRow) => void;
  onDetails: (row: QueueRow) => void;
  leavesQueue: boolean;
}) {
  const venueId = board.venue.id;
  const offer = row.offer?.state === 'live' ? row.offer : undefined;
  const isHead = board.head?.entryId === row.id;
  const told = row.kindPosition ?? row.position;
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
      {/* The big number is the one the party was told (its place among parties for its kind of table);
          the place in the whole list goes under it when it differs (issue 14, item 12). */}
      <div
        class="pos"
        data-testid="entry-position"
        aria-label={
          told !== row.position
            ? `told number ${told} for its kind of table, number ${row.position} in the whole list`
            : `number ${row.position} in line`
        }
      >
        {told}
        {told !== row.position && (
          <small class="pos-list" title="Place in the whole list">
            #{row.position} in list
          </small>
        )}
      </div>
      <div class="who">
        <div class="name">
          <bdi>{row.name}</bdi> <span class="size">{plural(row.partySize, 'person', 'people')}</span>
          {/* A seat pool sends no group any message (its Messages tab says so): no contact reaches less there. */}
          {board.venue.seating !== 'pool' && <ReachMarker reach={row.reach} />}
        </div>
        {/* Status, offer and wait on one line where the row is wide enough; staff tags and note under it. */}
        <div class="state">
          <span class={`chip chip-${row.status}`}>{boardWords(board.venue.seating).status[row.status]}</span>
          {offer && <Countdown until={offer.expiresAt} venueNow={venueNow} stopped={board.venue.sandbox} />}
          {labels.length > 0 && <span class="muted">{labels.join(' + ')}</span>}
          <span class="meta">
            <Waited row={row} venueNow={venueNow} />
            {isHead && board.head && !board.head.fits && board.head.reason ? ` · ${board.head.reason}` : ''}
          </span>
        </div>
        {((row.tags?.length ?? 0) > 0 || row.note) && (
          <div class="details" data-testid="entry-details">
            {row.tags?.map((t) => (
              <span key={t} class="tag">
                {tagLabel(t)}
              </span>
            ))}
            {row.note && <span class="note">{row.note}</span>}
          </div>
        )}
      </div>
      <div class="acts">
        {board.venue.seating === 'tables' && row.status === 'waiting' && (
          <button
            type="button"
            class="btn btn-primary"
            data-testid="offer-tables"
            disabled={offline.value}
            onClick={() => onOfferTables(row)}
          >
            Offer a table
          </button>
        )}
        {offer && (
          <>
            <ActButton
              kind="primary"
              testId="accept"
              onAct={() => {
                const next = boardWords(board.venue.seating).acceptedNext;
                return ownAct(
                  `accept:${offer.id}`,
                  () => act(`offers/${offer.id}/accept`, `${row.name} accepted: ${next}`),
                  async () => {
                    say('info', `${row.name} was accepted on another screen: ${next}`);
                    await afterAct();
                    // They left this list for "To be seated" (above it): on a phone, scrolled down the
                    // queue, the host saw the row go and the party nowhere. Brought into view there.
                    requestAnimationFrame(() => revealToSeat(offer.reservationId));
                  },
                );
              }}
            >
              {/* "Accept" where the row is short of room beside the party (styles.css). */}
              Accept<span class="long"> for them</span>
            </ActButton>
            <ActButton
              testId="withdraw"
              confirm={leavesQueue ? 'Tap again: leaves the queue' : undefined}
              onAct={() => act(`offers/${offer.id}/withdraw`, takenBack(board, row.name, leavesQueue))}
            >
              Take back
            </ActButton>
          </>
        )}
        <button type="button" class="btn btn-secondary" data-testid="entry-more" onClick={() => onDetails(row)}>
          More
        </button>
      </div>
    </li>
  );
}

/** Scrolls a party's row under "To be seated" into view, clear of the top bar and of the notices. */
function revealToSeat(reservationId: string): void {
  const row = document.querySelector(`[data-testid=to-seat-party][data-reservation-id="${CSS.escape(reservationId)}"]`);
  if (!row) return;
  row.scrollIntoView({ block: 'nearest' });
  clearOfToasts(row);
}
