import { useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { BoardSnapshot, JoinResult } from '../api/types';
import { checkPhone, phoneHint } from '../phone';
import { api } from '../state/session';
import { offline } from '../state/offline';
import { Modal } from './modal';
import { Stepper } from './stepper';

interface Props {
  board: BoardSnapshot;
  country: string | null | undefined;
  onJoined: (joined: JoinResult) => void;
  onClose: () => void;
}

/**
 * A party joins at the desk. Each distinct submission carries a fresh Idempotency-Key; only a retry
 * of the very same body after no answer at all (the network) reuses its key (ApiClient.post), so a
 * second tap after a lost answer joins once, and a corrected form after a refusal is a new request,
 * never a trap.
 */
export function DeskJoin({ board, country, onJoined, onClose }: Props) {
  const [name, setName] = useState('');
  const [size, setSize] = useState(2);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [touchedPhone, setTouchedPhone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const phoneCheck = phone.trim() ? checkPhone(phone, country) : null;
  // `undefined`: the venue (its country) is still being read. A national number is then the server's
  // to read with the venue's country: the page refused "(312) 555-0123" as no phone number, and never
  // sent the join, when the sheet was used before that read answered.
  const phoneBad = phoneCheck !== null && !phoneCheck.ok && country !== undefined;
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (phoneBad) {
      setTouchedPhone(true);
      return;
    }
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = { name: name.trim(), partySize: size };
    if (email.trim()) body['email'] = email.trim();
    if (phoneCheck?.ok) body['phone'] = phoneCheck.value;
    else if (phoneCheck) body['phone'] = phone.trim();
    try {
      onJoined(await api.post<JoinResult>(`/v1/venues/${board.venue.id}/queue`, body));
    } catch (err) {
      setError(refusalText(err, board));
    } finally {
      setBusy(false);
    }
  };
  const contactNeeded = board.venue.seating === 'tables';
  return (
    <Modal title="Add a party to the queue" onClose={onClose} testId="desk-join">
      <form class="form" onSubmit={(e) => void submit(e)} noValidate>
        <label>
          Name
          <input name="name" required maxLength={160} value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus />
        </label>
        <Stepper label="Party size" value={size} min={1} onChange={setSize} name="partySize" />
        <label>
          Phone{' '}
          {contactNeeded ? (
            <span class="muted">(or an email, to tell them when their table is ready)</span>
          ) : (
            <span class="muted">(optional)</span>
          )}
          <input
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            aria-invalid={touchedPhone && phoneBad}
            value={phone}
            onInput={(e) => setPhone(e.currentTarget.value)}
            onBlur={() => setTouchedPhone(true)}
          />
          <span class={touchedPhone && phoneBad ? 'field-error' : 'muted hint'} data-testid="phone-hint">
            {touchedPhone && phoneBad ? `This does not look like a phone number. ${phoneHint(country)}` : phoneHint(country)}
          </span>
        </label>
        <label>
          Email <span class="muted">{contactNeeded ? '(or a phone number)' : '(optional)'}</span>
          <input name="email" type="email" inputMode="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        {error && (
          <p class="error" role="alert" data-testid="join-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          class="btn btn-primary wide"
          disabled={busy || name.trim() === '' || offline.value}
          data-testid="join-submit"
        >
          Add to queue
        </button>
      </form>
    </Modal>
  );
}

/**
 * A refused join in the server's words. A duplicate names the party the contact already belongs to
 * (`details.entryId`, given to staff), as the board lists it: "the existing entry is where the party
 * already stands" (spec), so the host finds it instead of searching the list for a number.
 */
function refusalText(err: unknown, board: BoardSnapshot): string {
  const said = messageOf(err);
  if (!(err instanceof ApiError) || err.code !== 'WAITLIST_DUPLICATE') return said;
  const row = board.queue.find((r) => r.id === err.details['entryId']);
  if (!row) return said;
  return `${said} They are in the queue as ${row.name}, party of ${row.partySize}, number ${row.kindPosition ?? row.position} in line.`;
}
