import type { BoardSnapshot, TableRow, TableState } from '../api/types';
import { localTime } from '../format';
import { Countdown } from './countdown';

const STATE: Record<TableState, string> = {
  free: 'Free',
  held: 'Held',
  booked: 'Booked soon',
  occupied: 'Occupied',
};

/** The floor of a table venue: each table's state and who is planned on it or sitting at it. */
export function TablesPanel({ board, venueNow }: { board: BoardSnapshot; venueNow: (wall: number) => number }) {
  const tables = Array.isArray(board.tables) ? board.tables : [];
  if (board.venue.seating !== 'tables' && tables.length === 0) return null;
  return (
    <section class="panel tables" aria-label="Tables">
      <h2>Tables</h2>
      {tables.length === 0 ? (
        <p class="empty">No tables on the board yet.</p>
      ) : (
        <ul class="table-grid" data-testid="tables">
          {tables.map((t) => (
            <Table key={t.id} table={t} board={board} venueNow={venueNow} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Table({ table, board, venueNow }: { table: TableRow; board: BoardSnapshot; venueNow: (wall: number) => number }) {
  const who = table.placement?.name
    ? `${table.placement.name}${table.placement.partySize ? ` (${table.placement.partySize})` : ''}`
    : null;
  return (
    <li class={`table-card table-${table.state}`} data-testid="table" data-table-id={table.id} data-state={table.state}>
      <div class="table-label">
        {table.label} <span class="muted">· {table.capacity} seats</span>
      </div>
      <div class={`chip chip-table-${table.state}`}>{STATE[table.state] ?? table.state}</div>
      {table.state === 'held' && table.heldUntil && (
        <Countdown until={table.heldUntil} venueNow={venueNow} stopped={board.venue.sandbox} />
      )}
      {table.state === 'booked' && table.bookedAt && (
        <div class="muted">at {localTime(table.bookedAt, board.venue.timeZone)}</div>
      )}
      {who && <div class="placement">{who}</div>}
    </li>
  );
}
