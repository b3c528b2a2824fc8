import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { Venue } from '../api/types';
import { TopBar } from '../components/top-bar';
import { navigate } from '../state/router';
import { api } from '../state/session';

/** The venues this user belongs to (GET /v1/venues): one big button each. */
export function VenuePicker() {
  const [venues, setVenues] = useState<Venue[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<Venue[]>('/v1/venues').then(setVenues, (err: unknown) => setError(messageOf(err)));
  }, []);
  return (
    <>
      <TopBar title="Pick a venue" current="venues" />
      <main class="venues">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {venues === null && !error && <p class="muted">Loading venues…</p>}
        {venues?.length === 0 && <p class="empty">You are not a member of any venue yet.</p>}
        <ul class="venue-list" data-testid="venues">
          {venues?.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                class="venue-button"
                data-venue-id={v.id}
                onClick={() => navigate({ view: 'board', venueId: v.id })}
              >
                <span class="name">{v.name}</span>
                <span class="muted">
                  {v.preset === 'workshop' ? `workshop · ${v.policy.poolCapacity ?? '?'} seats` : 'restaurant · tables'}
                  {v.sandbox ? ' · sandbox' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
