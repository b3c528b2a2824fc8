import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { BoardSnapshot, Combination, Offer, TableRow } from '../api/types';
import { say } from '../state/notice';
import { offline } from '../state/offline';
import { api } from '../state/session';
import { boardWords } from '../words';
import { Modal } from './modal';
import { takenOnAnotherScreen } from './table-sheet';
import { tableLabels, tablesNamed } from './to-seat-panel';

/** What the picked tables are for: an offer to a waiting party, or moving a planned one. */
export type TablePurpose =
  | { kind: 'offer'; entryId: string; entryVersion: number; name: string; partySize: number }
  | { kind: 'move'; reservationId: string; name: string; current: string[]; partySize?: number };

interface Props {
  board: BoardSnapshot;
  combinations: Combination[];
  purpose: TablePurpose;
  onClose: () => void;
  afterAct: () => Promise<void>;
}

const MAX_TABLES = 4;

/** Why a table cannot be picked now, in words; null when it can. */
export function unavailable(t: TableRow, mine: boolean): string | null {
  if (mine || t.state === 'free') return null;
  const who = t.placement?.name ?? 'another party';
  if (t.state === 'held') return `Offered to ${who}`;
  if (t.state === 'occupied') return `${who} is seated here`;
  return `Booked for ${who}`;
}

/** Whether the picked tables are one table that seats the party or an approved combination that does. */
function fitProblem(picked: TableRow[], combinations: Combination[], size: number | undefined): string | null {
  if (picked.length === 0) return 'Pick a table.';
  if (size === undefined) return null;
  if (picked.length === 1) {
    const only = picked[0];
    return only.capacity >= size
      ? null
      : `Table ${only.label} seats ${only.capacity}; pick a bigger one or a set of tables that are combined.`;
  }
  const key = picked
    .map((t) => t.id)
    .sort()
    .join(',');
  const combo = combinations.find((c) => [...c.tableIds].sort().join(',') === key);
  if (!combo) return 'These tables are not an approved combination.';
  return combo.capacity >= size ? null : `Together these seat ${combo.capacity}.`;
}

/**
 * The order an offer's tables are listed in: the tables that seat the party alone first, the closest
 * fit first (fewest spare seats: a 4-top for a party of 4 before the 8-top), then the free tables too
 * small alone (for a combination), then those that cannot be offered now, greyed with their reason.
 * Ties keep the board's order (by label). A move, or a party of unknown size, keeps the board's order.
 */
export function pickOrder(tables: TableRow[], size: number | undefined, why: (t: TableRow) => string | null): TableRow[] {
  if (size === undefined) return tables;
  const rank = (t: TableRow): number => (why(t) !== null ? 2 : t.capacity >= size ? 0 : 1);
  return tables
    .map((t, i) => ({ t, i, rank: rank(t) }))
    .sort((a, b) => a.rank - b.rank || (a.rank === 0 ? a.t.capacity - b.t.capacity : 0) || a.i - b.i)
    .map((x) => x.t);
}

/** "Table Nook 5" of a party's live offer, or "a table" when the board does not name it. */
function offeredTables(board: BoardSnapshot, offer: Offer | undefined): string {
  return tablesNamed(board, offer?.state === 'live' ? offer.tableIds : []) || 'a table';
}

const samePick = (a: string[], b: string[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * A move starts from the party's own tables, picked: moving them there again changed nothing but
 * was confirmed as "moved", and a table tapped next to them made a pair that is no combination.
 * Says what to do instead, or null when the picked tables are somewhere new or a combination.
 */
function moveProblem(picked: TableRow[], current: string[], combinations: Combination[], board: BoardSnapshot): string | null {
  const ids = picked.map((t) => t.id).sort();
  const now = [...current].sort();
  const labels = current.map((id) => board.tables.find((t) => t.id === id)?.label ?? '?').join(' + ');
  if (samePick(ids, now))
    return `They are at ${labels} now: tap ${current.length > 1 ? 'them' : 'it'} to unpick, then tap where they move to.`;
  const keepsSome = ids.some((id) => now.includes(id)) && ids.length > 1;
  const combined = combinations.some((c) => [...c.tableIds].sort().join(',') === ids.join(','));
  return keepsSome && !combined
    ? `These tables are not an approved combination. Tap ${labels} (their table now) to unpick it.`
    : null;
}

/** Tap the tables, then offer or move. Tables that cannot be offered now are greyed out with the reason. */
export function TablePicker({ board, combinations, purpose: opened, onClose, afterAct }: Props) {
  // The party as the board has it now, not as it was when the sheet opened: another tablet may have
  // corrected it (its size, its version: an offer with the old one is refused as stale however often
  // it is tapped) or offered it a table meanwhile.
  const row = opened.kind === 'offer' ? board.queue.find((r) => r.id === opened.entryId) : undefined;
  const gone = opened.kind === 'offer' && row?.status !== 'waiting';
  // A move: where the party is now by the board. Another screen may have moved them meanwhile: the
  // sheet kept the old table as theirs and picked, and one tap on Move here took them back to it.
  const placedAt =
    opened.kind === 'move'
      ? board.tables.filter((t) => t.placement?.reservationId === opened.reservationId).map((t) => t.id)
      : [];
  const placedKey = [...placedAt].sort().join(',');
  const moveGone = opened.kind === 'move' && placedAt.length === 0;
  const purpose: TablePurpose =
    opened.kind === 'offer' && row
      ? { ...opened, entryVersion: row.version, name: row.name, partySize: row.partySize }
      : opened.kind === 'move' && placedAt.length > 0
        ? { ...opened, current: placedAt }
        : opened;
  const [picked, setPicked] = useState<string[]>(purpose.kind === 'move' ? purpose.current : []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Where they were when the sheet opened or last followed: moved elsewhere, the pick starts again
  // from their table now, and the sheet says who moved them (not this sheet's own move, answered).
  const [followed, setFollowed] = useState(placedKey);
  const [movedNote, setMovedNote] = useState(false);
  useEffect(() => {
    if (opened.kind !== 'move' || placedKey === '' || placedKey === followed) return;
    setFollowed(placedKey);
    setPicked(placedKey.split(','));
    setNoted([]);
    if (!busy) setMovedNote(true);
  }, [placedKey]);
  // A picked table another screen took meanwhile (offered, booked or seated someone there, or retired
  // it): it stayed picked, "fits", with Offer enabled, and the tap was refused. It leaves the pick at
  // once, and a note says who has it (not after this sheet's own act, whose read shows the table as
  // theirs), for as long as they do: the note follows the board, and goes once the table is free.
  const labelsSeen = useRef(new Map<string, string>());
  for (const t of board.tables) labelsSeen.current.set(t.id, t.label);
  const mineNow = (t: TableRow): boolean => purpose.kind === 'move' && purpose.current.includes(t.id);
  const takenNow = (id: string): TableRow | 'retired' | null => {
    const t = board.tables.find((x) => x.id === id);
    if (!t) return labelsSeen.current.has(id) ? 'retired' : null;
    return unavailable(t, mineNow(t)) !== null ? t : null;
  };
  const takenIds = picked.filter((id) => takenNow(id) !== null);
  const takenKey = takenIds.join(',');
  const [noted, setNoted] = useState<string[]>([]);
  useEffect(() => {
    if (takenKey === '' || busy) return;
    setPicked((now) => now.filter((id) => !takenIds.includes(id)));
    setNoted(takenIds);
  }, [takenKey, busy]);
  const takenLines = noted.flatMap((id) => {
    const now = takenNow(id);
    if (now === null) return [];
    if (now === 'retired') return [takenOnAnotherScreen(labelsSeen.current.get(id) ?? 'A table', null, '')];
    return [takenOnAnotherScreen(now.label, now, now.placement?.name ?? 'another party')];
  });
  const takenNote = takenLines.length > 0 ? `${takenLines.join(' ')} Pick another table.` : null;
  const size = purpose.kind === 'offer' ? purpose.partySize : purpose.partySize;
  const pickedRows = board.tables.filter((t) => picked.includes(t.id) && !takenIds.includes(t.id));
  const problem =
    (purpose.kind === 'move' && picked.length > 0 ? moveProblem(pickedRows, purpose.current, combinations, board) : null) ??
    fitProblem(pickedRows, combinations, size);
  // The sheet as it opens for a move: guidance, not a mistake.
  const unmoved = purpose.kind === 'move' && samePick([...picked].sort(), [...purpose.current].sort());
  const toggle = (id: string): void => {
    // A new pick answers the note of a table taken, and the refusal of the last tap.
    setNoted([]);
    setError(null);
    setPicked(picked.includes(id) ? picked.filter((p) => p !== id) : picked.length < MAX_TABLES ? [...picked, id] : picked);
  };
  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const venue = `/v1/venues/${board.venue.id}`;
      if (purpose.kind === 'offer') {
        await api.post(`${venue}/offers`, {
          entryId: purpose.entryId,
          entryVersion: purpose.entryVersion,
          tableIds: pickedRows.map((t) => t.id),
        });
        say('ok', `Table offered to ${purpose.name}.`);
      } else {
        await api.post(`${venue}/reservations/${purpose.reservationId}/move`, { tableIds: pickedRows.map((t) => t.id) });
        say('ok', `${purpose.name} moved.`);
      }
      // While busy: the board read after it has them at their new table, not "moved by another screen".
      await afterAct();
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const title = purpose.kind === 'offer' ? `Offer a table to ${purpose.name} (${purpose.partySize})` : `Move ${purpose.name}`;
  return (
    <Modal title={title} onClose={onClose} testId="table-picker">
      <ul class="pick-grid">
        {pickOrder(board.tables, purpose.kind === 'offer' ? purpose.partySize : undefined, (t) => unavailable(t, false)).map(
          (t) => {
            const mine = purpose.kind === 'move' && purpose.current.includes(t.id);
            const why = unavailable(t, mine);
            const on = picked.includes(t.id) && !takenIds.includes(t.id);
            return (
              <li key={t.id}>
                <button
                  type="button"
                  class={`table-pick table-${mine ? 'mine' : t.state}${on ? ' on' : ''}`}
                  aria-pressed={on}
                  disabled={why !== null}
                  data-table-id={t.id}
                  onClick={() => toggle(t.id)}
                >
                  <strong>{t.label}</strong>
                  <span>seats {t.capacity}</span>
                  <span class="why">{mine ? 'Their table now' : (why ?? 'Free')}</span>
                </button>
              </li>
            );
          },
        )}
      </ul>
      {combinations.length > 0 && (
        <p class="muted">
          Combined:{' '}
          {combinations
            .map(
              (c) => `${c.tableIds.map((id) => board.tables.find((t) => t.id === id)?.label ?? '?').join(' + ')} (${c.capacity})`,
            )
            .join(', ')}
        </p>
      )}
      <p class={problem && picked.length > 0 && !unmoved ? 'field-error' : 'muted'} data-testid="picker-fit">
        {problem ?? `${pickedRows.map((t) => t.label).join(' + ')}: fits.`}
      </p>
      {gone && (
        <p class="error" role="alert" data-testid="picker-gone">
          {row
            ? `${purpose.name} is no longer waiting for a table: another screen offered them ${offeredTables(board, row.offer)}.`
            : // Not in the queue any more: the words the party's More sheet gives.
              boardWords(board.venue.seating).entryGone(
                purpose.name,
                (board.toSeat ?? []).some((p) => opened.kind === 'offer' && p.entryId === opened.entryId),
              )}
        </p>
      )}
      {takenNote && !gone && !moveGone && !error && (
        <p class="info" role="status" data-testid="picker-taken">
          {takenNote}
        </p>
      )}
      {moveGone && (
        <p class="error" role="alert" data-testid="picker-gone">
          {purpose.name} no longer has a table here: another screen cleared it or marked them a no-show.
        </p>
      )}
      {/* News from another screen, not a mistake of this one: the note style, not the error's red. */}
      {movedNote && !moveGone && purpose.kind === 'move' && (
        <p class="info" role="status" data-testid="picker-moved">
          Another screen moved {purpose.name} to {tableLabels(board, purpose.current)}.
        </p>
      )}
      {error && !gone && !moveGone && (
        <p class="error" role="alert" data-testid="picker-error">
          {error}
        </p>
      )}
      <button
        type="button"
        class="btn btn-primary wide"
        disabled={busy || gone || moveGone || problem !== null || offline.value}
        data-testid="picker-submit"
        onClick={() => void submit()}
      >
        {purpose.kind === 'offer' ? 'Offer this table' : 'Move here'}
      </button>
    </Modal>
  );
}
