import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { BoardSnapshot, Entry, EntryDetail, QueueRow } from '../api/types';
import { localTime, sentence } from '../format';
import { checkPhone, displayPhone, phoneHint } from '../phone';
import { say } from '../state/notice';
import { offline } from '../state/offline';
import { api } from '../state/session';
import { tagsFor } from '../tags';
import { boardWords } from '../words';
import { ActButton } from './act-button';
import { Modal } from './modal';
import { Stepper } from './stepper';
import { tablesNamed } from './to-seat-panel';

interface Props {
  board: BoardSnapshot;
  row: QueueRow;
  /** The venue's country: national phone numbers are read with it. */
  country: string | null | undefined;
  /**
   * Why the queue no longer lists this party (another screen removed or seated them, they accepted or
   * left on their phone): the sheet stays, saying so, with nothing left to save or tap.
   */
  gone?: string;
  /** The largest party the venue takes (`Venue.queuePartyCap`; a pool: its seats), once read. */
  cap?: number;
  onClose: () => void;
  afterAct: () => Promise<void>;
  /** A new queue code was issued: show it. */
  onNewToken: (name: string, token: string | null) => void;
}

/**
 * What the party's details said when this sheet read them: a correction is sent against this
 * version and only for what differs from it, so another screen's correction in between is refused
 * as stale instead of being overwritten unseen.
 */
interface Read {
  version: number;
  name: string;
  partySize: number;
  email: string | null;
  phone: string | null;
}

/** Where a refusal is shown: under the field it names, or at the foot of the form. */
type Problems = Partial<Record<'name' | 'partySize' | 'email' | 'phone' | 'note' | 'form', string>>;

const FIELDS = ['name', 'partySize', 'email', 'phone'] as const;

const SAID: Record<(typeof FIELDS)[number], string> = {
  name: 'name',
  partySize: 'party size',
  email: 'email',
  phone: 'phone',
};

type Field = (typeof FIELDS)[number];
/** What the host typed, field by field; a field not typed in shows what was read. */
type Typed = Partial<{ name: string; partySize: number; email: string; phone: string }>;
/** A typed phone number the page cannot read: flagged at the field, not sent. */
const BAD_PHONE = Symbol('bad phone');

/**
 * What one typed field changes against what was read: `undefined` when it says the same thing (not
 * typed in, an address differing only in case or spaces, the same number typed another way), else
 * the value to send (null removes a contact), or BAD_PHONE.
 */
function change(field: Field, typed: Typed, r: Read, country: string | null | undefined): unknown {
  switch (field) {
    case 'name':
      return typed.name === undefined || typed.name.trim() === r.name ? undefined : typed.name.trim();
    case 'partySize':
      return typed.partySize === undefined || typed.partySize === r.partySize ? undefined : typed.partySize;
    case 'email': {
      if (typed.email === undefined) return undefined;
      const v = typed.email.trim();
      // The server keeps addresses lower-cased: "Dana@Gmail.com" is the address already stored.
      return (v.toLowerCase() || null) === r.email ? undefined : v || null;
    }
    case 'phone': {
      if (typed.phone === undefined) return undefined;
      const v = typed.phone.trim();
      if (v === '') return r.phone === null ? undefined : null;
      if (r.phone !== null && v === displayPhone(r.phone, country)) return undefined;
      const checked = checkPhone(v, country);
      if (!checked.ok) return BAD_PHONE;
      return checked.value === r.phone ? undefined : checked.value;
    }
  }
}

/**
 * One party: corrections of name, size, email and phone (the contact is read when the sheet opens:
 * the board carries none), staff notes and tags, a new code, taking them off the queue.
 */
export function EntrySheet({ board, row, country, cap, gone, onClose, afterAct, onNewToken }: Props) {
  const [opened, setOpened] = useState({ note: row.note ?? '', tags: row.tags ?? [] });
  const [read, setRead] = useState<Read>({
    version: row.version,
    name: row.name,
    partySize: row.partySize,
    email: null,
    phone: null,
  });
  const [contactRead, setContactRead] = useState<'reading' | 'ready' | 'failed'>('reading');
  const [tags, setTags] = useState<string[]>(opened.tags);
  const [note, setNote] = useState(opened.note);
  // What the host typed; a field not typed in shows what was read (and follows a new read).
  const [typed, setTyped] = useState<Typed>({});
  const type = (t: Typed): void => setTyped((before) => ({ ...before, ...t }));
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const base = `/v1/venues/${board.venue.id}/queue/${row.id}`;
  const shownPhone = (p: string | null): string => (p ? displayPhone(p, country) : '');
  const name = typed.name ?? read.name;
  const size = typed.partySize ?? read.partySize;
  const capped = cap !== undefined && read.partySize <= cap;
  const email = typed.email ?? read.email ?? '';
  const phone = typed.phone ?? shownPhone(read.phone);

  /**
   * Reads the party's details and takes them as the new base: a field the host has not changed
   * (not typed in, or typed back to what it said) shows the new value; one the host changed keeps
   * the typing. Answers the fields whose stored value changed.
   */
  const reread = async (before: Read): Promise<string[]> => {
    const d = await api.get<EntryDetail>(base);
    const now: Read = {
      version: d.entry.version,
      name: d.entry.name,
      partySize: d.entry.partySize,
      email: d.contact.email,
      phone: d.contact.phone,
    };
    setRead(now);
    setTyped((t) => {
      const kept: Typed = {};
      for (const f of FIELDS) if (change(f, t, before, country) !== undefined) Object.assign(kept, { [f]: t[f] });
      return kept;
    });
    setContactRead('ready');
    return FIELDS.filter((f) => now[f] !== before[f]).map((f) => SAID[f]);
  };

  useEffect(() => {
    reread(read).catch((err: unknown) => {
      setContactRead('failed');
      setProblems({ form: `The email and phone could not be read: ${messageOf(err)}` });
    });
  }, []); // Once, when the sheet opens.

  /** What the form changes against what was read; null when the typed phone cannot be read. */
  const changes = (): Record<string, unknown> | null => {
    const body: Record<string, unknown> = {};
    for (const f of FIELDS) {
      const value = change(f, typed, read, country);
      if (value === BAD_PHONE) return null;
      if (value !== undefined) body[f] = value;
    }
    return body;
  };

  const sameTags = (a: string[], b: string[]): boolean => a.length === b.length && a.every((t) => b.includes(t));

  const words = boardWords(board.venue.seating);
  const { who } = words;
  const refused = async (err: unknown): Promise<void> => {
    if (!(err instanceof ApiError)) {
      setProblems({ form: messageOf(err) });
      return;
    }
    if (err.code === 'WAITLIST_STALE') {
      // Another screen corrected this party since it was read: read it again and say what moved.
      try {
        const moved = await reread(read);
        setProblems({
          form:
            `Someone changed this ${who} on another screen a moment ago` +
            (moved.length > 0 ? ` (${moved.join(', ')})` : '') +
            `. The form now shows their change; what you typed is kept. Check it, then save again.`,
        });
      } catch (again) {
        setProblems({ form: `This ${who} was changed on another screen. Close and open it again. (${messageOf(again)})` });
      }
      return;
    }
    if (err.code === 'CONFLICT' && err.details['field'] === 'note') {
      // Both screens changed the note: say what the other saved; saving again replaces it with this one.
      const theirs = typeof err.details['note'] === 'string' ? err.details['note'] : '';
      setOpened((o) => ({ ...o, note: theirs }));
      setProblems({
        note: theirs
          ? `Another screen changed this note to “${theirs}” while you were typing. Save again to replace it with yours.`
          : `Another screen cleared this note while you were typing. Save again to keep yours.`,
      });
      return;
    }
    if (err.code === 'WAITLIST_DUPLICATE') {
      // The spec's words, then whose entry it is, so the host can look.
      const other = board.queue.find((r) => r.id === err.details['entryId']);
      setProblems({ form: other ? `${err.message} It is ${other.name}'s, #${other.position} in the queue.` : err.message });
      return;
    }
    const listed = Array.isArray(err.details['fields'])
      ? (err.details['fields'] as Array<{ field?: unknown }>)[0]?.field
      : undefined;
    const field = typeof err.details['field'] === 'string' ? err.details['field'] : listed;
    const at = FIELDS.find((f) => f === field);
    setProblems({ [at ?? 'form']: sentence(err.message) });
  };

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    const body = changes();
    if (body === null) {
      setProblems({ phone: `This does not look like a phone number. ${phoneHint(country)}` });
      return;
    }
    // Only what the host changed, with what the sheet read: a note or tag saved on another screen
    // since the sheet opened stays (a note changed on both screens is refused).
    const noteChanged = note.trim() !== opened.note.trim();
    const tagsChanged = !sameTags(tags, opened.tags);
    const details = {
      ...(noteChanged ? { note: note.trim() || null, noteWas: opened.note.trim() || null } : {}),
      ...(tagsChanged ? { tags, tagsWas: opened.tags } : {}),
    };
    const detailsChanged = noteChanged || tagsChanged;
    if (Object.keys(body).length === 0 && !detailsChanged) {
      // Nothing to send: no new version, no board event, nothing for other screens to reread.
      say('info', 'Nothing changed.');
      onClose();
      return;
    }
    setBusy(true);
    setProblems({});
    try {
      if (Object.keys(body).length > 0) {
        const r = await api.request<{ entry: Entry }>('PATCH', base, { body: { entryVersion: read.version, ...body } });
        setRead({
          version: r.entry.version,
          name: r.entry.name,
          partySize: r.entry.partySize,
          email: 'email' in body ? ((body['email'] as string | null)?.toLowerCase() ?? null) : read.email,
          phone: 'phone' in body ? (body['phone'] as string | null) : read.phone,
        });
      }
      if (detailsChanged) await api.request('PUT', `${base}/details`, { body: details });
      say('ok', savedText(name.trim(), body));
      await afterAct();
      onClose();
    } catch (err) {
      await refused(err);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (id: string): void => setTags(tags.includes(id) ? tags.filter((t) => t !== id) : [...tags, id]);
  const standing = standingOf(board, row, gone !== undefined);
  const contactOff = contactRead !== 'ready';
  const contactNeeded = board.venue.seating === 'tables';
  return (
    <Modal title={row.name} onClose={onClose} testId="entry-sheet">
      <form class="form" onSubmit={(e) => void save(e)} noValidate>
        {standing && (
          <p class="sheet-status" data-testid="entry-status" data-status={standing.status}>
            <span class={`chip chip-${standing.status}`}>{standing.text}</span>
          </p>
        )}
        {gone && (
          <p class="error" role="alert" data-testid="entry-gone">
            {gone}
          </p>
        )}
        <label>
          Name
          <input name="entryName" maxLength={160} value={name} onInput={(e) => type({ name: e.currentTarget.value })} />
          {problems.name && <span class="field-error">{problems.name}</span>}
        </label>
        <Stepper
          label="Party size"
          value={size}
          // A party larger than a cap lowered since it joined is not held to it here.
          max={capped ? cap : undefined}
          maxNote={capped ? boardWords(board.venue.seating).sizeCap(cap) : undefined}
          onChange={(n) => type({ partySize: n })}
          name="entrySize"
        />
        {problems.partySize && <span class="field-error">{problems.partySize}</span>}
        {row.reach === 'failed' && (
          <p class="error" data-testid="entry-reach-failed">
            A message to this party failed. Check the phone and email with them.
          </p>
        )}
        <label>
          Phone{' '}
          <span class="muted">{contactNeeded ? '(or an email, to tell them when their table is ready)' : '(optional)'}</span>
          <input
            name="entryPhone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            disabled={contactOff}
            placeholder={contactRead === 'reading' ? 'Reading…' : ''}
            aria-invalid={problems.phone !== undefined}
            value={phone}
            onInput={(e) => type({ phone: e.currentTarget.value })}
          />
          <span class={problems.phone ? 'field-error' : 'muted hint'} data-testid="entry-phone-hint">
            {problems.phone ?? phoneHint(country)}
          </span>
        </label>
        <label>
          Email <span class="muted">{contactNeeded ? '(or a phone number)' : '(optional)'}</span>
          <input
            name="entryEmail"
            type="email"
            inputMode="email"
            autoComplete="off"
            disabled={contactOff}
            placeholder={contactRead === 'reading' ? 'Reading…' : ''}
            aria-invalid={problems.email !== undefined}
            value={email}
            onInput={(e) => type({ email: e.currentTarget.value })}
          />
          {problems.email && (
            <span class="field-error" data-testid="entry-email-error">
              {problems.email}
            </span>
          )}
        </label>
        <fieldset class="tag-picker">
          <legend>Needs (staff only)</legend>
          {tagsFor(board.venue.seating, opened.tags).map((t) => (
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
          <input
            name="note"
            maxLength={200}
            value={note}
            aria-invalid={problems.note !== undefined}
            onInput={(e) => setNote(e.currentTarget.value)}
          />
          {problems.note && (
            <span class="field-error" role="alert" data-testid="entry-note-error">
              {problems.note}
            </span>
          )}
        </label>
        {problems.form && (
          <p class="error" role="alert" data-testid="entry-error">
            {problems.form}
          </p>
        )}
        <button
          type="submit"
          class="btn btn-primary wide"
          disabled={busy || offline.value || name.trim() === '' || gone !== undefined}
          data-testid="entry-save"
        >
          Save
        </button>
      </form>
      {gone === undefined && (
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
            confirm={words.removeAsk(row.status, row.partySize)}
            onAct={async () => {
              const r = await api.post<{ cancelledBooking?: unknown }>(`${base}/cancel`);
              // The host removed them: they did not leave (their message says the host removed them too).
              // The answer says when it cancelled their booking: a screen a read behind still lists them
              // waiting or offered after they accepted a table elsewhere, and that table is free again.
              say('ok', words.removed(row.name, r.cancelledBooking ? 'confirmed' : row.status, row.partySize));
              // Closed first: the board read after it no longer lists them, and an open sheet would say so.
              onClose();
              await afterAct();
            }}
          >
            Remove from queue
          </ActButton>
        </div>
      )}
    </Modal>
  );
}

/**
 * Where the party stands, as the board has it now (it follows other screens' acts): waiting and its
 * place, offered which tables until when, or, no longer in the queue, booked which tables (listed
 * under To be seated). Null for one gone otherwise (the sheet's note says why).
 */
function standingOf(board: BoardSnapshot, row: QueueRow, gone: boolean): { status: string; text: string } | null {
  const words = boardWords(board.venue.seating);
  const { standing } = words;
  if (gone) {
    const booked = (board.toSeat ?? []).find((p) => p.entryId === row.id);
    return booked ? { status: 'confirmed', text: standing.booked(tablesNamed(board, booked.tableIds)) } : null;
  }
  if (row.status === 'waiting') return { status: 'waiting', text: standing.waiting(row.kindPosition ?? row.position) };
  const offer = row.offer?.state === 'live' ? row.offer : undefined;
  if (row.status === 'offered' && offer) {
    const until = localTime(offer.expiresAt, board.venue.timeZone);
    return { status: 'offered', text: standing.offered(tablesNamed(board, offer.tableIds), until, row.partySize) };
  }
  return { status: row.status, text: words.status[row.status] };
}

/** The toast after a save: the name, and a corrected contact spelled out so the host can read it back. */
function savedText(name: string, body: Record<string, unknown>): string {
  const said: string[] = [];
  const email = body['email'];
  if ('email' in body) said.push(typeof email === 'string' ? `email now ${email.toLowerCase()}` : 'email removed');
  if ('phone' in body) said.push(body['phone'] ? 'phone corrected' : 'phone removed');
  return said.length > 0 ? `${name} saved: ${said.join(', ')}.` : `${name} saved.`;
}
