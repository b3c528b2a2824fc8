import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { BoardSnapshot } from '../api/types';
import { say } from '../state/notice';
import { api } from '../state/session';
import { Modal } from './modal';

/** What the picked tables are for: an offer to a waiting party, or moving a planned one. */
export type TablePurpose =
  | { kind: 'offer'; entryId: string; entryVersion: number; name: string; partySize: number }
  | { kind: 'move'; reservationId: string; name: string; current: string[] };

interface Props {
  board: BoardSnapshot;
  purpose: TablePurpose;
  onClose: () => void;
  afterAct: () => Promise<void>;
}

const MAX_TABLES = 4;

/** Tap the tables (up to four), then offer or move; a refusal names the placement in the API's words. */
export function TablePicker({ board, purpose, onClose, afterAct }: Props) {
  const [picked, setPicked] = useState<string[]>(purpose.kind === 'move' ? purpose.current : []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const seats = board.tables.filter((t) => picked.includes(t.id)).reduce((n, t) => n + t.capacity, 0);
  const toggle = (id: string): void =>
    setPicked(picked.includes(id) ? picked.filter((p) => p !== id) : picked.length < MAX_TABLES ? [...picked, id] : picked);
  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const venue = `/v1/venues/${board.venue.id}`;
      if (purpose.kind === 'offer') {
        await api.post(`${venue}/offers`, { entryId: purpose.entryId, entryVersion: purpose.entryVersion, tableIds: picked });
        say('ok', `Tables offered to ${purpose.name}.`);
      } else {
        await api.post(`${venue}/reservations/${purpose.reservationId}/move`, { tableIds: picked });
        say('ok', `${purpose.name} moved.`);
      }
      await afterAct();
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const title = purpose.kind === 'offer' ? `Offer tables to ${purpose.name} (${purpose.partySize})` : `Move ${purpose.name}`;
  return (
    <Modal title={title} onClose={onClose} testId="table-picker">
      <ul class="table-grid pick">
        {board.tables.map((t) => {
          const mine = purpose.kind === 'move' && purpose.current.includes(t.id);
          const on = picked.includes(t.id);
          return (
            <li key={t.id}>
              <button
                type="button"
                class={`table-pick${on ? ' on' : ''}`}
                aria-pressed={on}
                data-table-id={t.id}
                onClick={() => toggle(t.id)}
              >
                <strong>{t.label}</strong> <span class="muted">· {t.capacity}</span>
                <span class={`chip chip-table-${t.state}`}>{mine ? 'Theirs' : t.state}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <p class="muted">
        {picked.length} table(s), {seats} seats
        {purpose.kind === 'offer' && seats > 0 && seats < purpose.partySize
          ? ` — fewer than the party of ${purpose.partySize}`
          : ''}
      </p>
      {error && (
        <p class="error" role="alert" data-testid="picker-error">
          {error}
        </p>
      )}
      <button
        type="button"
        class="btn btn-primary wide"
        disabled={busy || picked.length === 0}
        data-testid="picker-submit"
        onClick={() => void submit()}
      >
        {purpose.kind === 'offer' ? 'Offer these tables' : 'Move here'}
      </button>
    </Modal>
  );
}
