import { useEffect, useState } from 'preact/hooks';
import { messageOf, newKey } from '../api/client';
import type { Venue } from '../api/types';
import { TopBar } from '../components/top-bar';
import { readWallClock } from '../state/clock';
import { navigate } from '../state/router';
import { api } from '../state/session';

/** The venues this user belongs to (one big button each), and a new venue from a preset. */
export function VenuePicker() {
  const [venues, setVenues] = useState<Venue[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    api.get<Venue[]>('/v1/venues').then(setVenues, (err: unknown) => setError(messageOf(err)));
  }, []);
  return (
    <>
      <TopBar title="Your venues" />
      <main class="page venues">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {venues === null && !error && <p class="muted">Loading venues…</p>}
        {venues?.length === 0 && <p class="empty">You are not a member of any venue yet. Create one below.</p>}
        <ul class="venue-list" data-testid="venues">
          {venues?.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                class="venue-button"
                data-venue-id={v.id}
                onClick={() => navigate({ view: 'venue', venueId: v.id, tab: 'floor' })}
              >
                <span class="name">{v.name}</span>
                <span class="muted">
                  {v.preset === 'workshop' ? `workshop · ${v.policy.poolCapacity ?? '?'} seats` : 'restaurant · tables'}
                  {v.sandbox ? ' · practice venue' : ''}
                </span>
                {/* What tells two venues of one name apart: their slug (unique, in their public join address) and time zone. */}
                <span class="venue-where" data-testid="venue-where">
                  {v.slug} · {v.timeZone.replaceAll('_', ' ')}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {creating ? (
          <NewVenue onClose={() => setCreating(false)} />
        ) : (
          <button type="button" class="btn btn-secondary" data-testid="new-venue" onClick={() => setCreating(true)}>
            New venue
          </button>
        )}
      </main>
    </>
  );
}

/** A slug from the name: lower-case letters, digits and dashes, plus a short random tail. */
function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `${base || 'venue'}-${newKey().slice(0, 6)}`;
}

function NewVenue({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<'restaurant' | 'workshop'>('restaurant');
  const [seats, setSeats] = useState(20);
  const [timeZone, setTimeZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [practice, setPractice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        slug: slugOf(name),
        name: name.trim(),
        timeZone,
        preset,
        ...(preset === 'workshop' ? { poolCapacity: seats } : {}),
        // A practice venue's clock starts now and moves only when a manager moves it.
        ...(practice ? { sandbox: true, clock: new Date(readWallClock()).toISOString() } : {}),
      };
      const v = await api.post<Venue>('/v1/venues', body);
      navigate({ view: 'venue', venueId: v.id, tab: 'setup' });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form card" onSubmit={(e) => void submit(e)} data-testid="new-venue-form">
      <h2>New venue</h2>
      <label>
        Name
        <input name="venueName" required maxLength={160} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <fieldset class="choice">
        <legend>Kind</legend>
        <label>
          <input type="radio" name="preset" checked={preset === 'restaurant'} onChange={() => setPreset('restaurant')} />
          Restaurant (tables, short holds, the host picks who is next)
        </label>
        <label>
          <input type="radio" name="preset" checked={preset === 'workshop'} onChange={() => setPreset('workshop')} />
          Workshop (a pool of seats, groups in order)
        </label>
      </fieldset>
      {preset === 'workshop' && (
        <label>
          Seats
          <input
            type="number"
            name="poolCapacity"
            min={1}
            value={seats}
            onInput={(e) => setSeats(Number(e.currentTarget.value) || 1)}
          />
        </label>
      )}
      <label>
        Time zone
        <input name="timeZone" required value={timeZone} onInput={(e) => setTimeZone(e.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="checkbox" name="practice" checked={practice} onChange={(e) => setPractice(e.currentTarget.checked)} />
        Practice venue (its clock stands still until you move it)
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="row-acts">
        <button type="submit" class="btn btn-primary" disabled={busy || name.trim() === ''} data-testid="create-venue">
          Create venue
        </button>
        <button type="button" class="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
