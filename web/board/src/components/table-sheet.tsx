import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { BoardSnapshot, TableRow } from '../api/types';
import { localTime } from '../format';
import { say } from '../state/notice';
import { offline } from '../state/offline';
import { api } from '../state/session';
import { wallSecond } from '../state/clock';
import { ActButton } from './act-button';
import { Countdown } from './countdown';
import { tableWord, turnText } from './floor-map';
import { Modal } from './modal';
import { takenBack } from './queue-panel';
import { Stepper } from './stepper';

interface Props {
  board: BoardSnapshot;
  table: TableRow;
  venueNow: (wall: number) => number;
  onMove: (reservationId: string, name: string, tableIds: string[]) => void;
  onClose: () => void;
  afterAct: () => Promise<void>;
  /** Taking the offer back ends the party's place (the `leave-queue` policy): a second tap first. */
  leavesQueue: boolean;
  /** The floor no longer lists the table (a manager retired it on another screen): shown as last seen. */
  gone?: boolean;
}

/** What a host was typing for a walk-in: kept by the sheet, so it outlives the form being turned off. */
interface WalkInDraft {
  size: number;
  name: string;
}

/**
 * A table another screen took, in words: retired (`table` null), or offered, booked or seated for
 * `who`. `label` is how the place names it: "Table Bar 2" in its own sheet, "Booth 9" in the picker.
 */
export function takenOnAnotherScreen(label: string, table: TableRow | null, who: string): string {
  if (!table) return `${label} was taken out of service on another screen.`;
  if (table.state === 'held') return `${label} was just offered to ${who} on another screen.`;
  if (table.state === 'occupied') return `${who} was just seated at ${label} on another screen.`;
  return `${label} was just booked for ${who} on another screen.`;
}

/**
 * Why a walk-in form the host had open can no longer seat anyone: another screen retired the table,
 * offered it, booked it or seated a party there. Null while the table is free.
 */
function takenNote(table: TableRow, gone: boolean): string | null {
  const who = table.placement?.name;
  if (!gone && (table.state === 'free' || !who)) return null;
  return takenOnAnotherScreen(`Table ${table.label}`, gone ? null : table, who ?? '');
}

/** One table: seat a walk-in at a free one, or seat, move and clear the party planned or sitting there. */
export function TableSheet({ board, table, venueNow, onMove, onClose, afterAct, leavesQueue, gone = false }: Props) {
  // A table retired on another screen has no party to act for (one whose hold had lapsed may still
  // show in its last reading): none of the placement's acts is offered.
  const p = gone ? undefined : table.placement;
  // The walk-in form, once shown, stays while the sheet is open: when another screen takes the table
  // (retires, offers, books or seats it) it is turned off and says why, and the name typed is kept
  // for the host to read or copy. It was replaced without a word, and the name was lost.
  const [draft, setDraft] = useState<WalkInDraft>({ size: Math.min(2, table.capacity), name: '' });
  const walkInSeen = useRef(false);
  if (table.state === 'free' && !gone) walkInSeen.current = true;
  // Who this sheet's own Seat now sent, while it is on its way or went through (the push can come
  // before its answer, and the sheet closes only once the board is read again): the table seated for
  // them is not "seated on another screen". Only a refusal clears it; any other party taking the
  // table is told, even after an unanswered Seat now.
  const [sentHere, setSentHere] = useState<string | null>(null);
  const ownWalkIn = sentHere !== null && table.state === 'occupied' && table.placement?.name === sentHere;
  const note = (walkInSeen.current || gone) && !ownWalkIn ? takenNote(table, gone) : null;
  const base = `/v1/venues/${board.venue.id}`;
  const tablesOf = (reservationId: string): string[] =>
    board.tables.filter((t) => t.placement?.reservationId === reservationId).map((t) => t.id);
  const offer = p ? board.offers.find((o) => o.reservationId === p.reservationId && o.state === 'live') : undefined;
  // A Seat now refused because another screen took the table: the sheet now shows that party, and
  // the form (with its error) is gone, so the refusal is kept here: the walk-in was not seated.
  const [refused, setRefused] = useState<{ who: string; text: string; by?: string } | null>(null);
  // It is about the party that took the table, as first shown after it: once the table is free, taken
  // by another party or that party seated, it is stale ("… offered to Ines Varga right now" is not).
  const holder = p ? `${p.reservationId}:${table.state}` : null;
  useEffect(() => {
    if (!refused) return;
    if (refused.by === undefined) {
      if (holder) setRefused({ ...refused, by: holder });
    } else if (holder !== refused.by) setRefused(null);
  }, [holder, refused]);
  const done = async (text: string): Promise<void> => {
    say('ok', text);
    await afterAct();
    onClose();
  };
  return (
    <Modal title={`Table ${table.label} · seats ${table.capacity}`} onClose={onClose} testId="table-sheet">
      <p class={`chip chip-table-${gone ? 'gone' : table.state}`}>
        {gone ? 'Out of service' : tableWord(table, venueNow(wallSecond.value))}
      </p>
      {/* A refusal of this sheet's own Seat now says more (the walk-in is not seated): it comes alone. */}
      {note && !(refused && table.state !== 'free') && (
        <p class="error" role="alert" data-testid="table-taken">
          {note}
        </p>
      )}
      {table.state !== 'free' && refused && (
        <p class="error" role="alert" data-testid="walk-in-error">
          <bdi>{refused.who}</bdi> is not seated. {refused.text} Choose another table.
        </p>
      )}
      {p && (
        <div class="placement">
          <p>
            <strong>
              <bdi>{p.name}</bdi>
            </strong>
            , {p.partySize} {p.partySize === 1 ? 'person' : 'people'}
          </p>
          {table.state === 'held' && table.until && (
            <p>
              Offer open: <Countdown until={table.until} venueNow={venueNow} stopped={board.venue.sandbox} />
            </p>
          )}
          {table.state === 'booked' && table.until && <p class="muted">From {localTime(table.until, board.venue.timeZone)}</p>}
          {table.state === 'occupied' && <p data-testid="turn-time">Turn: {turnText(table, venueNow(wallSecond.value))}</p>}
        </div>
      )}
      {walkInSeen.current && (
        <WalkIn
          board={board}
          table={table}
          draft={draft}
          onDraft={setDraft}
          off={note !== null}
          onSent={setSentHere}
          onDone={done}
          onRefused={setRefused}
        />
      )}
      <div class="sheet-acts">
        {p?.state === 'CONFIRMED' && (
          <ActButton
            kind="primary"
            testId="seat"
            onAct={async () => {
              await api.post(`${base}/reservations/${p.reservationId}/seat`);
              await done(`${p.name} seated at ${table.label}.`);
            }}
          >
            Seat them
          </ActButton>
        )}
        {p && offer && (
          <ActButton
            testId="table-withdraw"
            confirm={leavesQueue ? 'Tap again: leaves the queue' : undefined}
            onAct={async () => {
              await api.post(`${base}/offers/${offer.id}/withdraw`);
              await done(takenBack(board, p.name, leavesQueue));
            }}
          >
            Take back the offer
          </ActButton>
        )}
        {p && (p.state === 'CONFIRMED' || p.state === 'SEATED') && (
          <button
            type="button"
            class="btn btn-secondary"
            data-testid="move"
            disabled={offline.value}
            onClick={() => onMove(p.reservationId, p.name, tablesOf(p.reservationId))}
          >
            Move to another table
          </button>
        )}
        {p?.state === 'CONFIRMED' && tableWord(table, venueNow(wallSecond.value)) === 'To seat' && (
          <ActButton
            testId="table-no-show"
            confirm="Tap again: no-show"
            onAct={async () => {
              await api.post(`${base}/reservations/${p.reservationId}/cancel`);
              await done(`${p.name} marked as a no-show; ${table.label} released.`);
            }}
          >
            No-show
          </ActButton>
        )}
        {table.state === 'occupied' && p?.visitId && (
          <ActButton
            testId="clear"
            confirm="Tap again to clear"
            onAct={async () => {
              await api.post(`${base}/visits/${p.visitId ?? ''}/clear`);
              await done(`${table.label} is free.`);
            }}
          >
            Clear the table
          </ActButton>
        )}
      </div>
    </Modal>
  );
}

/**
 * Seat now: a party that walks in to a free table never waits, so it needs no contact. One tap
 * books the table from now for one turn and seats the party at once (`POST …/walk-ins`, one request).
 */
function WalkIn({
  board,
  table,
  draft,
  onDraft,
  off,
  onSent,
  onDone,
  onRefused,
}: {
  board: BoardSnapshot;
  table: TableRow;
  draft: WalkInDraft;
  onDraft: (draft: WalkInDraft) => void;
  /** Another screen took the table: the sheet says so, and Seat now is off (the name stays). */
  off: boolean;
  /** Who Seat now sent, as it is sent; null once the server refused it (an unanswered one may have seated them). */
  onSent: (who: string | null) => void;
  onDone: (text: string) => Promise<void>;
  /** Told of every refusal, with who was not seated: the sheet keeps it once the table is taken. */
  onRefused: (refusal: { who: string; text: string } | null) => void;
}) {
  const { size, name } = draft;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A refusal shown before the table was taken is told by the sheet from then on; once the table is
  // free again the form starts clean, not with a refusal about a party no longer there.
  useEffect(() => {
    if (off) setError(null);
  }, [off]);
  const base = `/v1/venues/${board.venue.id}`;
  const seat = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    onRefused(null);
    const who = name.trim() || `Walk-in at ${table.label}`;
    onSent(who);
    let seated = false;
    try {
      // One command books the table from the venue's now for one turn and seats the party: a lost
      // answer retried (the same key) seats them once, and nothing is left booked but not seated.
      await api.post(`${base}/walk-ins`, { tableIds: [table.id], partySize: size, name: who });
      seated = true;
      await onDone(`${who} seated at ${table.label}.`);
    } catch (err) {
      setError(messageOf(err));
      // Refused: nobody was seated. (A failed read after the seat leaves them seated here.)
      if (!seated && err instanceof ApiError && err.status >= 400 && err.status < 500) onSent(null);
      // A refusal (409: the table was taken) saved nothing; an unanswered request may have seated them.
      if (!seated && err instanceof ApiError && err.status === 409) onRefused({ who, text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="form walk-in" data-testid="walk-in">
      <Stepper
        label="Party size"
        value={size}
        max={table.capacity}
        maxNote={`Table ${table.label} seats ${table.capacity}: a larger party needs another table.`}
        onChange={(n) => onDraft({ ...draft, size: n })}
        name="walkInSize"
      />
      <label>
        Name <span class="muted">(optional)</span>
        <input
          name="walkInName"
          maxLength={160}
          value={name}
          onInput={(e) => onDraft({ ...draft, name: e.currentTarget.value })}
        />
      </label>
      {/* Once the table is taken the sheet tells the refusal (or why the form is off) above. */}
      {error && !off && (
        <p class="error" role="alert" data-testid="walk-in-error">
          {error}
        </p>
      )}
      <button
        type="button"
        class="btn btn-primary wide"
        data-testid="seat-now"
        disabled={busy || offline.value || off}
        onClick={() => void seat()}
      >
        Seat now
      </button>
    </div>
  );
}
