import { useMemo, useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { TableDef } from '../api/types';
import { fitTiles, layout, type TileFit } from '../floor-layout';
import { say } from '../state/notice';
import { api } from '../state/session';
import { rootRem, useMeasured } from '../components/use-measured';

/**
 * Tile sizes in rem: a 40 px+ target wide enough for "12 seats" under the label, and tall enough for a
 * label on two lines above it (styles.css: "Patio 12" wraps where the tile is narrow; a label longer
 * than two lines is cut with an ellipsis, whole in the tables list above and in the hint once picked).
 */
const TILE = { minWidth: 4.5, maxWidth: 7.5, height: 3.8, gap: 0.35 };
/** The widest the plan grows to when its tiles do not fit the screen (it then scrolls sideways in its frame). */
const MAX_PLAN_PX = 1200;

/** Room kept above the plan for the top bar and the hint: the rest of the screen's height is the plan's. */
const ABOVE_PLAN_PX = 140;

/**
 * The plan's width when its tiles fit (the frame's inner width, or less where a 4:3 plan that wide
 * would be taller than the screen: on a landscape tablet it was, and a table picked at the top was
 * placed at the bottom only after scrolling), the frame's width, and 1rem; kept current as the
 * screen turns.
 */
const frameSize = (el: HTMLElement): { width: number; frame: number; rem: number } => ({
  width: Math.min(el.clientWidth, Math.floor((Math.max(240, window.innerHeight - ABOVE_PLAN_PX) * 4) / 3)),
  frame: el.clientWidth,
  rem: rootRem(),
});

/**
 * How wide to draw the plan and where its tiles go: the frame's width when every tile fits there
 * without touching another, else the narrowest wider plan where they do (the frame then scrolls
 * sideways: thirty tables on a phone were drawn over each other, spilling past the plan's edge, and
 * some could not be tapped). Tiles placed on one spot never come apart: then the tiles are drawn at
 * their smallest, inside the plan, on the frame's width.
 */
function planFit(
  placed: Array<{ x: number; y: number }>,
  frame: number,
  tile: { minWidth: number; maxWidth: number; height: number; gap: number },
): { width: number; fit: TileFit } {
  const inner = (w: number) => ({ width: w - 2, height: (w * 3) / 4 - 2 });
  for (let w = frame; w <= Math.max(frame, MAX_PLAN_PX); w = Math.ceil(w * 1.08)) {
    const fit = fitTiles(placed, inner(w), tile);
    if (fit) return { width: w, fit };
  }
  const box = inner(frame);
  const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), Math.max(lo, hi));
  return {
    width: frame,
    fit: {
      width: tile.minWidth,
      centres: placed.map((p) => ({
        cx: clamp((p.x / 100) * box.width, tile.minWidth / 2, box.width - tile.minWidth / 2),
        cy: clamp((p.y / 100) * box.height, tile.height / 2, box.height - tile.height / 2),
      })),
    },
  };
}

/** Border and side padding of a tile, in px (styles.css: 3 px borders, 0.25rem padding), and a pixel spare. */
const tileSides = (rem: number): number => 2 * 3 + 0.5 * rem + 2;

/**
 * The widest single word of the tables' labels, in px, drawn as a tile draws it (bold, 0.9rem, the
 * page's font): the narrowest tile that breaks a label between its words only ("Window 3" read
 * "Windo / w 3" in a 72 px tile on a phone).
 */
function widestWord(labels: string[], rem: number): number {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return 0;
  ctx.font = `700 ${0.9 * rem}px ${getComputedStyle(document.body).fontFamily}`;
  let widest = 0;
  for (const label of labels) for (const word of label.split(/\s+/)) widest = Math.max(widest, ctx.measureText(word).width);
  return Math.ceil(widest);
}

/** Tap a table, then tap where it stands: positions are saved with the table. */
export function PlanEditor({ venueId, tables, reload }: { venueId: string; tables: TableDef[]; reload: () => Promise<void> }) {
  const [picked, setPicked] = useState<string | null>(null);
  const [frameRef, frame] = useMeasured({ width: 0, frame: 0, rem: 16 }, frameSize, true);
  const labelsKey = tables.map((t) => t.label).join('\n');
  const word = useMemo(() => widestWord(labelsKey.split('\n'), frame.rem), [labelsKey, frame.rem]);
  if (tables.length === 0) return null;
  const placed = layout(tables);
  const px = (rem: number): number => rem * frame.rem;
  // No narrower than the longest word of a label (the plan then scrolls sideways on a phone), but no
  // wider than the widest tile: a longer word is broken, a longer label cut after two lines.
  const minWidth = Math.min(px(TILE.maxWidth), Math.max(px(TILE.minWidth), word + tileSides(frame.rem)));
  const tile = { minWidth, maxWidth: px(TILE.maxWidth), height: px(TILE.height), gap: px(TILE.gap) };
  const { width, fit } = frame.width > 0 ? planFit(placed, frame.width, tile) : { width: 0, fit: null };
  const pickedTable = tables.find((t) => t.id === picked);
  const place = async (e: MouseEvent): Promise<void> => {
    if (!picked) return;
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const x = Math.round(Math.min(95, Math.max(5, ((e.clientX - box.left) / box.width) * 100)));
    const y = Math.round(Math.min(92, Math.max(8, ((e.clientY - box.top) / box.height) * 100)));
    try {
      await api.request('PATCH', `/v1/venues/${venueId}/tables/${picked}`, { body: { x, y } });
      setPicked(null);
      await reload();
    } catch (err) {
      say('error', messageOf(err));
    }
  };
  return (
    <section class="card" data-testid="plan-setup">
      <h2>Floor plan</h2>
      <p class="muted" data-testid="plan-hint">
        {pickedTable ? `Now tap where ${pickedTable.label} stands.` : 'Tap a table, then tap its place on the plan.'}
        {width > frame.frame && ' Swipe the plan sideways to see all of it.'}
      </p>
      <div class="plan-frame" ref={frameRef}>
        {fit && (
          <div class="plan editing" style={{ width: `${width}px` }} onClick={(e) => void place(e)} data-testid="plan-editor">
            {placed.map((t, i) => (
              <button
                key={t.id}
                type="button"
                class={`table-spot table-free${picked === t.id ? ' on' : ''}`}
                style={{
                  left: `${fit.centres[i]?.cx ?? 0}px`,
                  top: `${fit.centres[i]?.cy ?? 0}px`,
                  width: `${fit.width}px`,
                  height: `${tile.height}px`,
                }}
                data-table-id={t.id}
                aria-pressed={picked === t.id}
                aria-label={`Table ${t.label}, ${t.capacity} seats`}
                title={t.label}
                onClick={(e) => {
                  e.stopPropagation();
                  setPicked(picked === t.id ? null : t.id);
                }}
              >
                <strong>{t.label}</strong>
                <span class="spot-line">{t.capacity} seats</span>
              </button>
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
