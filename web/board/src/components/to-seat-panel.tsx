import type { BoardSnapshot, ToSeatParty } from '../api/types';
import { duration, localTime, plural } from '../format';
import { wallSecond } from '../state/clock';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  afterAct: () => Promise<void>;
  /** A queue party's new link, to show on the token card. */
  onNewToken: (name: string, token: string | null) => void;
}

/** "T1 + T2": a party's tables by label, in the order the server gives them. */
export function tableLabels(board: BoardSnapshot, tableIds: string[]): string {
  return tableIds.map((id) => board.tables.find((t) => t.id === id)?.label ?? '?').join(' + ');
}

/** "Table T4", "Tables T4 + T5", or "" for none. */
export function tablesNamed(board: BoardSnapshot, tableIds: string[]): string {
  return tableIds.length === 0 ? '' : `${tableIds.length > 1 ? 'Tables' : 'Table'} ${tableLabels(board, tableIds)}`;
}

/** "12 min", or past an hour "2 h 5 min" (a party still listed the next day reads "26 h 5 min"). */
function agoText(ms: number): string {
  return duration(ms / 60_000);
}

/** "confirmed 6:05 PM, 12 min ago", or for a booking not due yet "booked for 7:00 PM". */
function sinceText(p: ToSeatParty, board: BoardSnapshot, now: number): string {
  const tz = board.venue.timeZone;
  const start = Date.parse(p.slot.start);
  if (p.entryId === null && start > now) return `booked for ${localTime(start, tz)}`;
  const since = p.entryId === null ? start : Date.parse(p.confirmedAt);
  const word = p.entryId === null ? 'expected since' : 'confirmed';
  return `${word} ${localTime(since, tz)}, ${agoText(now - since)} ago`;
}

/**
 * Parties with a confirmed table who have not been seated yet (API.md: a reservation is CONFIRMED
 * until it is seated or cancelled). The host seats them when they arrive, or cancels the booking
 * when they do not come (a no-show), which frees their tables. Shown only while there are some.
 */
export function ToSeatPanel({ board, venueNow, afterAct, onNewToken }: Props) {
  const parties = board.toSeat ?? [];
  if (board.venue.seating !== 'tables' || parties.length === 0) return null;
  const base = `/v1/venues/${board.venue.id}`;
  return (
    <section class="panel to-seat" aria-label="To be seated" data-testid="to-seat">
      <div class="panel-head">
        <h2>
          To be seated <span class="muted">({parties.length})</span>
        </h2>
      </div>
      <ol class="rows">
        {parties.map((p) => (
          <ToSeatRow
            key={p.reservationId}
            p={p}
            board={board}
            base={base}
            venueNow={venueNow}
            afterAct={afterAct}
            onNewToken={onNewToken}
          />
        ))}
      </ol>
    </section>
  );
}

/** One party to seat. Its own component, so that each second re-renders its times, not the list. */
function ToSeatRow({
  p,
  board,
  base,
  venueNow,
  afterAct,
  onNewToken,
}: {
  p: ToSeatParty;
  board: BoardSnapshot;
  base: string;
  venueNow: (wall: number) => number;
  afterAct: () => Promise<void>;
  onNewToken: Props['onNewToken'];
}) {
  const now = venueNow(wallSecond.value);
  const tables = tableLabels(board, p.tableIds);
  const overdue = Date.parse(p.slot.end) <= now;
  // A booking whose time has not come yet is not a no-show: it is listed with its time, to be seated.
  const due = p.entryId !== null || Date.parse(p.slot.start) <= now;
  return (
    <li class="row to-seat-row" data-testid="to-seat-party" data-reservation-id={p.reservationId}>
      <div class="pos" aria-hidden="true">
        ✓
      </div>
      <div class="who">
        <div class="name">
          <bdi>{p.name}</bdi> <span class="size">{plural(p.partySize, 'person', 'people')}</span>
        </div>
        {/* The table, then since when: one line where the row is wide enough (a tablet). */}
        <div class="state">
          <span class="chip chip-confirmed" data-testid="to-seat-tables">
            {p.tableIds.length > 1 ? 'Tables' : 'Table'} {tables}
          </span>
          <span class="meta" data-testid="to-seat-since">
            {sinceText(p, board, now)}
          </span>
          {overdue && <span class="muted">their turn's time has passed</span>}
        </div>
      </div>
      <div class="acts">
        <ActButton
          kind="primary"
          testId="to-seat-seat"
          onAct={async () => {
            await api.post(`${base}/reservations/${p.reservationId}/seat`);
            say('ok', `${p.name} seated at ${tables}.`);
            await afterAct();
          }}
        >
          Seat them
        </ActButton>
        {due && (
          <ActButton
            testId="to-seat-no-show"
            confirm="Tap again: no-show"
            onAct={async () => {
              await api.post(`${base}/reservations/${p.reservationId}/cancel`);
              say('ok', `${p.name} marked as a no-show; ${tables} released.`);
              await afterAct();
            }}
          >
            No-show
          </ActButton>
        )}
        {p.entryId !== null && (
          // A party on its way whose phone lost its page (its session lasts an hour) asks the desk for a new code.
          <ActButton
            testId="to-seat-new-token"
            confirm="Tap again: the old code stops working"
            onAct={async () => {
              const r = await api.post<{ queueToken: string | null }>(`${base}/queue/${p.entryId ?? ''}/token`);
              await afterAct();
              onNewToken(p.name, r.queueToken);
            }}
          >
            {/* "New code" beside the party on a tablet (the row's width goes to its name). */}
            New<span class="long"> queue</span> code
          </ActButton>
        )}
      </div>
    </li>
  );
}
