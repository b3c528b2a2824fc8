import { useState } from 'preact/hooks';
import { messageOf, newKey } from '../api/client';
import type { BoardSnapshot, JoinResult } from '../api/types';
import { api } from '../state/session';
import { Modal } from './modal';

interface Props {
  board: BoardSnapshot;
  onJoined: (joined: JoinResult) => void;
  onClose: () => void;
}

/** A party joins at the desk: name, size and (for table venues, required) a contact. */
export function DeskJoin({ board, onJoined, onClose }: Props) {
  const [name, setName] = useState('');
  const [size, setSize] = useState(2);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per filled-in form: a second tap after a lost answer joins once, not twice.
  const [key] = useState(newKey);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, unknown> = { name: name.trim(), partySize: size };
      if (email.trim()) body['email'] = email.trim();
      if (phone.trim()) body['phone'] = phone.trim();
      onJoined(await api.post<JoinResult>(`/v1/venues/${board.venue.id}/queue`, body, { idempotencyKey: key }));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const contactNeeded = board.venue.seating === 'tables';
  return (
    <Modal title="Join at the desk" onClose={onClose} testId="desk-join">
      <form class="form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input name="name" required maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus />
        </label>
        <div class="stepper" role="group" aria-label="Party size">
          <span>Party size</span>
          <button type="button" class="btn btn-secondary" aria-label="One fewer" onClick={() => setSize(Math.max(1, size - 1))}>
            −
          </button>
          <input
            name="partySize"
            type="number"
            inputMode="numeric"
            min={1}
            max={99}
            value={size}
            onInput={(e) => setSize(Math.max(1, Number(e.currentTarget.value) || 1))}
          />
          <button type="button" class="btn btn-secondary" aria-label="One more" onClick={() => setSize(size + 1)}>
            +
          </button>
        </div>
        <label>
          Email {contactNeeded ? '(email or phone needed)' : '(optional)'}
          <input name="email" type="email" inputMode="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Phone <span class="muted">(+1 312 555 0123 form)</span>
          <input name="phone" type="tel" inputMode="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />
        </label>
        {error && (
          <p class="error" role="alert" data-testid="join-error">
            {error}
          </p>
        )}
        <button type="submit" class="btn btn-primary wide" disabled={busy || name.trim() === ''} data-testid="join-submit">
          Add to queue
        </button>
      </form>
    </Modal>
  );
}
