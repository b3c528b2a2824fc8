import type { BoardSnapshot, Combination, TableRow, TableState } from '../api/types';
import { wallNow, wallSecond } from '../state/clock';
import { byLabel, combinationLines, fitTiles, layout } from '../floor-layout';
import { countdown } from '../format';
import { rootRem, useMeasured } from './use-measured';

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

/**
 * Tile sizes in rem: wide enough for "Offered · 4" and "120 of 90 min" (a party's name is cut with
 * an ellipsis, and shown whole in the table's sheet), tall enough for the label and three lines.
 */
const TILE = { minWidth: 6.5, maxWidth: 8.5, height: 5, gap: 0.4 };

/** The plan's inner width and height in pixels (its height follows from its 4:3 shape), and 1rem. */
const planSize = (el: HTMLElement): { width: number; height: number; rem: number } => ({
  width: el.clientWidth,
  height: (el.offsetWidth * 3) / 4 - (el.offsetWidth - el.clientWidth),
  rem: rootRem(),
});

/**
 * The floor plan: each table where it stands, coloured by state, combinations drawn between tables.
 * Tiles are all one size and never cover each other; where the plan is too narrow for that (a phone,
 * or tables placed close together), the tables are listed in a grid in label order instead.
 */
export function FloorMap({ board, combinations, venueNow, onTable }: Props) {
  const [planRef, plan] = useMeasured({ width: 0, height: 0, rem: 16 }, planSize);
  const placed = layout(board.tables);
  const px = (rem: number): number => rem * plan.rem;
  const fit = fitTiles(placed, plan, {
    minWidth: px(TILE.minWidth),
    maxWidth: px(TILE.maxWidth),
    height: px(TILE.height),
    gap: px(TILE.gap),
  });
  const drawn = fit
    ? placed.map((t, i) => {
        const c = fit.centres[i] ?? { cx: 0, cy: 0 };
        return { ...t, x: (c.cx / plan.width) * 100, y: (c.cy / plan.height) * 100 };
      })
    : [...placed].sort(byLabel);
  const lines = fit ? combinationLines(drawn, combinations) : [];
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
        <div
          class={`plan ${fit ? 'plan-spatial' : 'plan-grid'}`}
          data-testid="tables"
          data-layout={fit ? 'plan' : 'grid'}
          ref={planRef}
        >
          {fit && (
            <svg class="plan-lines" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
              {lines.map((l) => (
                <line key={l.id} x1={l.x1} y1={l.y1} x2={l.x2} y2={l.y2} />
              ))}
            </svg>
          )}
          {drawn.map((t, i) => (
            <TableTile
              key={t.id}
              table={t}
              at={fit ? { left: fit.centres[i]?.cx ?? 0, top: fit.centres[i]?.cy ?? 0, width: fit.width } : null}
              venueNow={venueNow}
              onTable={onTable}
            />
          ))}
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

/**
 * One table on the plan. Only a table whose words depend on the time reads the clock (an offer's
 * countdown every quarter second, a turn or a booking come due each second), and only its tile
 * renders again when it ticks: the plan's layout is not measured and fitted again every tick.
 */
function TableTile({
  table: t,
  at,
  venueNow,
  onTable,
}: {
  table: TableRow;
  at: { left: number; top: number; width: number } | null;
  venueNow: (wall: number) => number;
  onTable: (table: TableRow) => void;
}) {
  const held = t.state === 'held' && t.until;
  const timed = held || t.state === 'occupied' || (t.state === 'booked' && t.until);
  const now = timed ? venueNow(held ? wallNow.value : wallSecond.value) : 0;
  const word = tableWord(t, now);
  const turn = turnText(t, now);
  const left = held ? countdown(Date.parse(t.until as string) - now) : null;
  return (
    <button
      type="button"
      class={`table-spot table-${t.state}`}
      style={at ? { left: `${at.left}px`, top: `${at.top}px`, width: `${at.width}px` } : undefined}
      data-testid="table"
      data-table-id={t.id}
      data-state={t.state}
      aria-label={`Table ${t.label}, seats ${t.capacity}, ${word}${t.placement ? `, ${t.placement.name}` : ''}`}
      onClick={() => onTable(t)}
    >
      <strong>{t.label}</strong>
      <span class="spot-line">
        {word} · {t.capacity}
      </span>
      {t.placement && <span class="spot-line who">{t.placement.name}</span>}
      {turn && (
        <span class="spot-line" data-testid="turn">
          {turn}
        </span>
      )}
      {left && (
        <span class="spot-line" data-testid="countdown">
          {left}
        </span>
      )}
    </button>
  );
}
