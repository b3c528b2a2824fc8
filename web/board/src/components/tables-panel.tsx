import type { BoardSnapshot, TableRow, TableState } from '../api/types';
import { localTime } from '../format';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';
import { Countdown } from './countdown';

const STATE: Record<TableState, string> = {
  free: 'Free',
  held: 'Held',
  booked: 'Booked soon',
  occupied: 'Occupied',
};

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  onMove: (reservationId: string, name: string, tableIds: string[]) => void;
  afterAct: () => Promise<void>;
}

/** The floor of a table venue: each table's state and who is planned on it or sitting at it. */
export function TablesPanel({ board, venueNow, onMove, afterAct }: Props) {
  const tables = Array.isArray(board.tables) ? board.tables : [];
  if (board.venue.seating !== 'tables' && tables.length === 0) return null;
  const counts = board.counts && 'free' in board.counts ? board.counts : null;
  return (
    <section class="panel tables" aria-label="Tables">
      <h2>
        Tables{' '}
        {counts && (
          <span class="muted" data-testid="table-counts">
            {counts.free} free · {counts.held} held · {counts.booked} booked · {counts.occupied} occupied
          </span>
        )}
      </h2>
      {tables.length === 0 ? (
        <p class="empty">No tables set up yet.</p>
      ) : (
        <ul class="table-grid" data-testid="tables">
          {tables.map((t) => (
            <Table key={t.id} table={t} board={board} venueNow={venueNow} onMove={onMove} afterAct={afterAct} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Table({ table, board, venueNow, onMove, afterAct }: { table: TableRow } & Props) {
  const p = table.placement;
  const tz = board.venue.timeZone;
  const seat = async (): Promise<void> => {
    if (!p) return;
    await api.post(`/v1/venues/${board.venue.id}/reservations/${p.reservationId}/seat`);
    say('ok', `${p.name} seated at ${table.label}.`);
    await afterAct();
  };
  const clear = async (visitId: string): Promise<void> => {
    await api.post(`/v1/venues/${board.venue.id}/visits/${visitId}/clear`);
    say('ok', `${table.label} cleared.`);
    await afterAct();
  };
  // The placement's other tables move with it.
  const tablesOf = (reservationId: string): string[] =>
    board.tables.filter((t) => t.placement?.reservationId === reservationId).map((t) => t.id);
  return (
    <li class={`table-card table-${table.state}`} data-testid="table" data-table-id={table.id} data-state={table.state}>
      <div class="table-label">
        {table.label} <span class="muted">· {table.capacity}</span>
      </div>
      <div class={`chip chip-table-${table.state}`}>{STATE[table.state] ?? table.state}</div>
      {table.state === 'held' && table.until && (
        <Countdown until={table.until} venueNow={venueNow} stopped={board.venue.sandbox} />
      )}
      {table.state === 'booked' && table.until && <div class="muted">at {localTime(table.until, tz)}</div>}
      {table.state === 'occupied' && table.until && <div class="muted">since {localTime(table.until, tz)}</div>}
      {p && (
        <div class="placement">
          <bdi>{p.name}</bdi> ({p.partySize})
        </div>
      )}
      {table.state === 'occupied' && p?.visitId && (
        <div class="table-acts">
          <ActButton testId="clear" confirm="Tap again to clear" onAct={() => clear(p.visitId ?? '')}>
            Clear
          </ActButton>
        </div>
      )}
      {p && (p.state === 'CONFIRMED' || p.state === 'HELD') && (
        <div class="table-acts">
          {p.state === 'CONFIRMED' && (
            <ActButton kind="primary" testId="seat" onAct={seat}>
              Seat
            </ActButton>
          )}
          <button
            type="button"
            class="btn btn-secondary"
            onClick={() => onMove(p.reservationId, p.name, tablesOf(p.reservationId))}
          >
            Move
          </button>
        </div>
      )}
    </li>
  );
}
