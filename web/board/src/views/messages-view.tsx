import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { Message } from '../api/types';
import { localDateTime } from '../format';
import { api } from '../state/session';
import type { TabProps } from './registry';

/** How often the open Messages tab reads the list again, so new messages appear by themselves. */
const REFRESH_MS = 5000;

/** Every message the venue recorded, in full (managers and owners). */
export function MessagesView({ venueId, data }: TabProps) {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const read = (): void => {
      api.get<Message[]>(`/v1/venues/${venueId}/messages`).then(
        (m) => live && (setMessages(m), setError(null)),
        (err: unknown) => live && setError(messageOf(err)),
      );
    };
    read();
    const timer = window.setInterval(read, REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [venueId]);
  const tz = data.venue.value?.timeZone;
  return (
    <main class="page messages">
      {error && (
        <p class="error" role="alert" data-testid="messages-error">
          {error}
        </p>
      )}
      {messages === null && !error && <p class="muted">Loading messages…</p>}
      {messages?.length === 0 && <p class="empty">No messages sent to guests yet.</p>}
      <ul class="message-list" data-testid="messages">
        {messages?.map((m) => (
          <li key={m.id} class="message" data-testid="message" data-template={m.template}>
            <header>
              <strong>{m.subject}</strong>
              <span class="muted">
                to {m.to} · {localDateTime(m.createdAt, tz)} · {m.status}
              </span>
            </header>
            <pre class="body">{m.body}</pre>
          </li>
        ))}
      </ul>
    </main>
  );
}
