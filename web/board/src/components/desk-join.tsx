import { useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { BoardSnapshot, JoinResult } from '../api/types';
import { sentence } from '../format';
import { checkPhone, phoneHint } from '../phone';
import { api } from '../state/session';
import { offline } from '../state/offline';
import { Modal } from './modal';
import { Stepper } from './stepper';
import { boardWords } from '../words';

/** What of the form a refusal was about: the contact (phone or email), the party size, the name. */
type Part = 'contact' | 'partySize' | 'name';

/** A refusal and the parts of the form it was about (none: the venue's state, the network). */
interface Refusal {
  text: string;
  about: Part[];
}

interface Props {
  board: BoardSnapshot;
  country: string | null | undefined;
  /**
   * The largest party the venue takes (a pool: its seats; `Venue.queuePartyCap`), undefined while
   * the venue is being read: the server then refuses a larger one.
   */
  cap?: number;
  onJoined: (joined: JoinResult) => void;
  onClose: () => void;
  /** Removed from the venue's staff while the sheet was open: nothing can be added; what was typed stays in view. */
  ended?: boolean;
}

/**
 * A party joins at the desk. Each distinct submission carries a fresh Idempotency-Key; only a retry
 * of the very same body after no answer at all (the network) reuses its key (ApiClient.post), so a
 * second tap after a lost answer joins once, and a corrected form after a refusal is a new request,
 * never a trap.
 */
export function DeskJoin({ board, country, cap, onJoined, onClose, ended = false }: Props) {
  const [name, setName] = useState('');
  const [chosen, setSize] = useState(2);
  // The stepper stops at the cap (a venue read after the sheet opened brings it down to it).
  const size = cap !== undefined ? Math.max(1, Math.min(chosen, cap)) : chosen;
  const words = boardWords(board.venue.seating);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [touchedPhone, setTouchedPhone] = useState(false);
  const [error, setError] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  // The server's answer was about the form as sent: once the host changes what it was about, it
  // no longer answers what is on screen (a stale "needs an email or a phone number" stood beside
  // the new number's own hint). A refusal about nothing in the form stays until the next submit.
  const edited = (part: Part): void => setError((now) => (now && now.about.includes(part) ? null : now));
  const phoneCheck = phone.trim() ? checkPhone(phone, country) : null;
  // `undefined`: the venue (its country) is still being read. A national number is then the server's
  // to read with the venue's country: the page refused "(312) 555-0123" as no phone number, and never
  // sent the join, when the sheet was used before that read answered.
  const phoneBad = phoneCheck !== null && !phoneCheck.ok && country !== undefined;
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (ended) return;
    if (phoneBad) {
      // The current answer is the number's own hint; the last server answer was to another form.
      setError(null);
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
      setError(refusalOf(err, board));
    } finally {
      setBusy(false);
    }
  };
  const contactNeeded = board.venue.seating === 'tables';
  return (
    <Modal title={`Add a ${words.who} to the queue`} onClose={onClose} testId="desk-join">
      <form class="form" onSubmit={(e) => void submit(e)} noValidate>
        <label>
          Name
          <input
            name="name"
            required
            maxLength={160}
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              edited('name');
            }}
            autoFocus
          />
        </label>
        <Stepper
          label="Party size"
          value={size}
          min={1}
          max={cap}
          maxNote={cap !== undefined ? words.sizeCap(cap) : undefined}
          onChange={(n) => {
            setSize(n);
            edited('partySize');
          }}
          name="partySize"
        />
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
            onInput={(e) => {
              setPhone(e.currentTarget.value);
              edited('contact');
            }}
            onBlur={() => setTouchedPhone(true)}
          />
          <span class={touchedPhone && phoneBad ? 'field-error' : 'muted hint'} data-testid="phone-hint">
            {touchedPhone && phoneBad ? `This does not look like a phone number. ${phoneHint(country)}` : phoneHint(country)}
          </span>
        </label>
        <label>
          Email <span class="muted">{contactNeeded ? '(or a phone number)' : '(optional)'}</span>
          <input
            name="email"
            type="email"
            inputMode="email"
            value={email}
            onInput={(e) => {
              setEmail(e.currentTarget.value);
              edited('contact');
            }}
          />
        </label>
        {ended && (
          <p class="error" role="alert" data-testid="join-ended">
            You are no longer on the staff of this venue: {name.trim() || `this ${words.who}`} was not added to the queue.
          </p>
        )}
        {error && !ended && (
          <p class="error" role="alert" data-testid="join-error">
            {error.text}
          </p>
        )}
        <button
          type="submit"
          class="btn btn-primary wide"
          disabled={busy || name.trim() === '' || offline.value || ended}
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
function refusalOf(err: unknown, board: BoardSnapshot): Refusal {
  // As the party's More sheet says it: the API's "email must be …" as a sentence.
  const said = sentence(messageOf(err));
  if (!(err instanceof ApiError)) return { text: said, about: [] };
  if (err.code !== 'WAITLIST_DUPLICATE') return { text: said, about: partsOf(err.details) };
  const row = board.queue.find((r) => r.id === err.details['entryId']);
  const text = row
    ? `${said} They are in the queue as ${row.name}, ${boardWords(board.venue.seating).who} of ${row.partySize}, number ${row.kindPosition ?? row.position} in line.`
    : said;
  return { text, about: ['contact'] };
}

/** The form's parts a refusal names: `details.field` (the service's rules) or `details.fields` (the request's checks). */
function partsOf(details: Record<string, unknown>): Part[] {
  const listed = Array.isArray(details['fields'])
    ? (details['fields'] as Array<{ field?: unknown }>).map((f) => f.field)
    : [details['field']];
  const parts = new Set<Part>();
  for (const field of listed) {
    if (field === 'email' || field === 'phone') parts.add('contact');
    else if (field === 'partySize' || field === 'name') parts.add(field);
  }
  return [...parts];
}
