import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf, nextLink } from '../api/client';
import type { Message, Venue } from '../api/types';
import { TopBar } from '../components/top-bar';
import { localDateTime } from '../format';
import { api } from '../state/session';

/**
 * The messages the venue recorded, emails and texts, newest first, in full, each with its channel
 * and delivery status (GET /v1/venues/:id/messages, managers and owners; its newest page).
 */
export function MessagesView({ venueId }: { venueId: string }) {
  const [venue, setVenue] = useState<Venue | null>(null);
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<{ text: string; forbidden: boolean } | null>(null);
  const [older, setOlder] = useState<string | null>(null);
  /** One page (newest first); `Link: rel="next"` says where the older ones are. */
  const page = (path: string, before: Message[]): void => {
    api.get<Message[]>(path, { onHeaders: (h) => setOlder(nextLink(h.get('Link'))) }).then(
      (more) => setMessages([...before, ...more]),
      (err: unknown) => setError({ text: messageOf(err), forbidden: err instanceof ApiError && err.status === 403 }),
    );
  };
  useEffect(() => {
    api.get<Venue>(`/v1/venues/${venueId}`).then(setVenue, () => undefined);
    page(`/v1/venues/${venueId}/messages`, []);
  }, [venueId]);
  return (
    <>
      <TopBar title={venue ? `${venue.name}: messages` : 'Messages'} venueId={venueId} current="messages" />
      <main class="messages">
        {error && (
          <div class="error-box" role="alert" data-testid="messages-error">
            <p>{error.text}</p>
            {error.forbidden && <p>Only a manager or the owner of this venue can read the messages it sent to guests.</p>}
          </div>
        )}
        {messages === null && !error && <p class="muted">Loading messages…</p>}
        {messages?.length === 0 && <p class="empty">No messages recorded yet.</p>}
        <ul class="message-list" data-testid="messages">
          {messages?.map((m) => (
            <li
              key={m.id}
              class="message"
              data-testid="message"
              data-template={m.template}
              data-channel={m.channel}
              data-status={m.status}
            >
              <header>
                <strong>{m.subject}</strong>
                <span class="message-meta">
                  <span class="chan" data-testid="message-channel">
                    {m.channel === 'sms' ? 'Text' : 'Email'}
                  </span>
                  <span class={`status status-${m.status}`} data-testid="message-status" title={m.failureReason}>
                    {m.status}
                    {m.failureReason ? `: ${m.failureReason}` : ''}
                  </span>
                </span>
                <span class="muted">
                  to {m.to} · {localDateTime(m.createdAt, venue?.timeZone)} · {m.template}
                </span>
              </header>
              <pre class="body">{m.body}</pre>
            </li>
          ))}
        </ul>
        {older && messages && (
          <button type="button" class="btn wide" data-testid="messages-older" onClick={() => page(older, messages)}>
            Show older messages
          </button>
        )}
      </main>
    </>
  );
}
