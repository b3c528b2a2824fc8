import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { BoardSnapshot, QueueRow } from '../api/types';
import { say } from '../state/notice';
import { offline } from '../state/offline';
import { api } from '../state/session';
import { TAGS } from '../tags';
import { ActButton } from './act-button';
import { Modal } from './modal';
import { Stepper } from './stepper';

interface Props {
  board: BoardSnapshot;
  row: QueueRow;
  onClose: () => void;
  afterAct: () => Promise<void>;
  /** A new queue code was issued: show it. */
  onNewToken: (name: string, token: string | null) => void;
}

/** One party: staff notes and tags, corrections of name and size, a new code, taking them off the queue. */
export function EntrySheet({ board, row, onClose, afterAct, onNewToken }: Props) {
  const [tags, setTags] = useState<string[]>(row.tags ?? []);
  const [note, setNote] = useState(row.note ?? '');
  const [name, setName] = useState(row.name);
  const [size, setSize] = useState(row.partySize);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = `/v1/venues/${board.venue.id}/queue/${row.id}`;
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (name.trim() !== row.name || size !== row.partySize) {
        await api.request('PATCH', base, {
          body: {
            entryVersion: row.version,
            ...(name.trim() !== row.name ? { name: name.trim() } : {}),
            ...(size !== row.partySize ? { partySize: size } : {}),
          },
        });
      }
      await api.request('PUT', `${base}/details`, { body: { note: note.trim() || null, tags } });
      say('ok', `${name.trim()} saved.`);
      await afterAct();
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (id: string): void => setTags(tags.includes(id) ? tags.filter((t) => t !== id) : [...tags, id]);
  return (
    <Modal title={row.name} onClose={onClose} testId="entry-sheet">
      <form class="form" onSubmit={(e) => void save(e)}>
        <label>
          Name
          <input name="entryName" maxLength={160} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <Stepper label="Party size" value={size} onChange={setSize} name="entrySize" />
        <fieldset class="tag-picker">
          <legend>Needs (staff only)</legend>
          {TAGS.map((t) => (
            <button
              key={t.id}
              type="button"
              class={`chip-btn${tags.includes(t.id) ? ' on' : ''}`}
              aria-pressed={tags.includes(t.id)}
              data-tag={t.id}
              onClick={() => toggle(t.id)}
            >
              {t.label}
            </button>
          ))}
        </fieldset>
        <label>
          Note (staff only)
          <input name="note" maxLength={200} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        </label>
        {error && (
          <p class="error" role="alert" data-testid="entry-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          class="btn btn-primary wide"
          disabled={busy || offline.value || name.trim() === ''}
          data-testid="entry-save"
        >
          Save
        </button>
      </form>
      <div class="sheet-acts">
        <ActButton
          testId="new-token"
          confirm="Tap again: the old code stops working"
          onAct={async () => {
            const r = await api.post<{ queueToken: string | null }>(`${base}/token`);
            await afterAct();
            onNewToken(row.name, r.queueToken);
          }}
        >
          New queue code
        </ActButton>
        <ActButton
          kind="danger"
          testId="cancel"
          confirm="Tap again to remove"
          onAct={async () => {
            await api.post(`${base}/cancel`);
            say('ok', `${row.name} left the queue.`);
            await afterAct();
            onClose();
          }}
        >
          Remove from queue
        </ActButton>
      </div>
    </Modal>
  );
}
