import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { Message, Venue } from '../api/types';
import { TopBar } from '../components/top-bar';
import { localDateTime } from '../format';
import { api } from '../state/session';

/** Every email the venue recorded, in full (GET /v1/venues/:id/messages, managers and owners). */
export function MessagesView({ venueId }: { venueId: string }) {
  const [venue, setVenue] = useState<Venue | null>(null);
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<{ text: string; forbidden: boolean } | null>(null);
  useEffect(() => {
    api.get<Venue>(`/v1/venues/${venueId}`).then(setVenue, () => undefined);
    api
      .get<Message[]>(`/v1/venues/${venueId}/messages`)
      .then(setMessages, (err: unknown) =>
        setError({ text: messageOf(err), forbidden: err instanceof ApiError && err.status === 403 }),
      );
  }, [venueId]);
  return (
    <>
      <TopBar title={venue ? `${venue.name}: messages` : 'Messages'} venueId={venueId} current="messages" />
      <main class="messages">
        {error && (
          <div class="error-box" role="alert" data-testid="messages-error">
            <p>{error.text}</p>
            {error.forbidden && <p>Only a manager or the owner of this venue can read the emails it sent to guests.</p>}
          </div>
        )}
        {messages === null && !error && <p class="muted">Loading messages…</p>}
        {messages?.length === 0 && <p class="empty">No emails recorded yet.</p>}
        <ul class="message-list" data-testid="messages">
          {messages?.map((m) => (
            <li key={m.id} class="message" data-testid="message" data-template={m.template}>
              <header>
                <strong>{m.subject}</strong>
                <span class="muted">
                  to {m.to} · {localDateTime(m.createdAt, venue?.timeZone)} · {m.template} · {m.status}
                </span>
              </header>
              <pre class="body">{m.body}</pre>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
