import type { BoardSnapshot, Combination, TableRow, TableState } from '../api/types';
import { wallNow } from '../state/clock';
import { combinationLines, layout } from '../floor-layout';
import { countdown } from '../format';

export const TABLE_STATE: Record<TableState, string> = {
  free: 'Free',
  held: 'Offered',
  booked: 'Booked',
  occupied: 'Seated',
};

interface Props {
  board: BoardSnapshot;
  combinations: Combination[];
  venueNow: (wall: number) => number;
  onTable: (table: TableRow) => void;
}

/**
 * A booked table whose party is due (its booking has started, or its party confirmed an offer and is
 * on the way) reads "To seat", so it is not taken for a later reservation; one booked for later reads "Booked".
 */
export function tableWord(t: TableRow, now: number): string {
  if (t.state === 'booked' && t.until && Date.parse(t.until) <= now) return 'To seat';
  return TABLE_STATE[t.state];
}

/** Minutes of the turn used at a seated table, e.g. "34 of 90 min". */
export function turnText(t: TableRow, now: number): string | null {
  if (t.state !== 'occupied' || !t.until || !t.placement) return null;
  const used = Math.max(0, Math.floor((now - Date.parse(t.until)) / 60_000));
  const turn = Math.round((Date.parse(t.placement.slot.end) - Date.parse(t.placement.slot.start)) / 60_000);
  return `${used} of ${turn} min`;
}

/** The floor plan: each table where it stands, coloured by state, combinations drawn between tables. */
export function FloorMap({ board, combinations, venueNow, onTable }: Props) {
  const now = venueNow(wallNow.value);
  const placed = layout(board.tables);
  const lines = combinationLines(placed, combinations);
  const counts = board.counts && 'free' in board.counts ? board.counts : null;
  return (
    <section class="panel floor" aria-label="Tables">
      <div class="panel-head">
        <h2>Tables</h2>
        {counts && (
          <span class="muted" data-testid="table-counts">
            {counts.free} free · {counts.held} offered · {counts.booked} booked · {counts.occupied} seated
          </span>
        )}
      </div>
      {board.tables.length === 0 ? (
        <p class="empty">No tables set up yet.</p>
      ) : (
        <div class="plan" data-testid="tables">
          <svg class="plan-lines" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
            {lines.map((l) => (
              <line key={l.id} x1={l.x1} y1={l.y1} x2={l.x2} y2={l.y2} />
            ))}
          </svg>
          {placed.map((t) => {
            const turn = turnText(t, now);
            const held = t.state === 'held' && t.until ? countdown(Date.parse(t.until) - now) : null;
            return (
              <button
                key={t.id}
                type="button"
                class={`table-spot table-${t.state}`}
                style={{ left: `${t.x}%`, top: `${t.y}%` }}
                data-testid="table"
                data-table-id={t.id}
                data-state={t.state}
                aria-label={`Table ${t.label}, seats ${t.capacity}, ${tableWord(t, now)}${t.placement ? `, ${t.placement.name}` : ''}`}
                onClick={() => onTable(t)}
              >
                <strong>{t.label}</strong>
                <span class="spot-line">
                  {tableWord(t, now)} · {t.capacity}
                </span>
                {t.placement && <span class="spot-line who">{t.placement.name}</span>}
                {turn && (
                  <span class="spot-line" data-testid="turn">
                    {turn}
                  </span>
                )}
                {held && (
                  <span class="spot-line" data-testid="countdown">
                    {held}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
      <ul class="legend" aria-label="Colours">
        {(Object.keys(TABLE_STATE) as TableState[]).map((s) => (
          <li key={s}>
            <span class={`swatch table-${s}`} aria-hidden="true" /> {s === 'booked' ? 'Booked or to seat' : TABLE_STATE[s]}
          </li>
        ))}
      </ul>
    </section>
  );
}
