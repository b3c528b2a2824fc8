import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf, nextLink } from '../api/client';
import type { Message } from '../api/types';
import { localDateTime, localTime } from '../format';
import { displayPhone } from '../phone';
import { ACCESS_ENDED } from '../state/board-sync';
import { api } from '../state/session';
import type { TabProps } from './registry';
import { boardWords } from '../words';

/** How often the open Messages tab reads the newest page again, so new messages appear by themselves. */
const REFRESH_MS = 5000;

/** A page of messages (newest first) and where the next, older one is (`Link: rel="next"`). */
interface Page {
  messages: Message[];
  next: string | null;
}

function readPage(path: string): Promise<Page> {
  let next: string | null = null;
  return api
    .get<Message[]>(path, { onHeaders: (h) => (next = nextLink(h.get('Link'))) })
    .then((messages) => ({ messages, next }));
}

/**
 * A message's delivery status in the words the filter uses ("Not delivered"), not the API's:
 * "recorded" read to a manager as if the guest had it, when no provider had taken it yet.
 */
const STATUS_WORDS: Record<Message['status'], string> = {
  recorded: 'not sent yet',
  sending: 'sending',
  sent: 'sent',
  failed: 'not delivered',
};

/**
 * Said of a message no provider will take: "not sent yet" read as if it were on its way. The row
 * says it short; why is said once above the list (on every row, it wrapped to two lines of small
 * type on a phone, five times a screen).
 */
const NO_PROVIDER_STATUS = 'will not be sent';
const NO_PROVIDER_WORDS: Record<Message['channel'], string> = {
  sms: 'No text message provider is set up, so texts are only recorded here: they will not be sent.',
  email: 'No email provider is set up, so emails are only recorded here: they will not be sent.',
};

function statusInWords(m: Message): string {
  // A reason it will never be sent says so itself ("not sent: a sandbox venue's messages…").
  if (m.notSentReason && !m.failureReason) return m.notSentReason;
  if (m.noProvider && m.status === 'recorded') return NO_PROVIDER_STATUS;
  const word = STATUS_WORDS[m.status];
  return `${m.failureReason ? `${word}: ${m.failureReason}` : word}${m.notSentReason ? ` (${m.notSentReason})` : ''}`;
}

/** The newest page, then the older pages asked for, each message once (a refresh may overlap them). */
function merged(newest: Message[], older: Message[]): Message[] {
  const seen = new Set<string>();
  return [...newest, ...older].filter((m) => !seen.has(m.id) && (seen.add(m.id), true));
}

/**
 * The messages the venue recorded, emails and texts, newest first, in full, each with its channel
 * and delivery status (managers and owners). The newest page is read again every few seconds;
 * older pages are read on request and kept.
 */
export function MessagesView({ venueId, data }: TabProps) {
  /** "Not delivered": after a bad evening, the guests who did not hear from us, without paging through the rest. */
  const [failedOnly, setFailedOnly] = useState(false);
  /**
   * A guest's phone or email as the manager typed it ("Did Ana get her text?"); the api reads any form
   * of it. Or the party's name, or part of it: "Ana" finds the messages to her phone and her email.
   */
  const [typed, setTyped] = useState('');
  const [recipient, setRecipient] = useState('');
  const [newest, setNewest] = useState<Page | null>(null);
  /** The older pages asked for; `next` is null once the oldest was read. */
  const [older, setOlder] = useState<Page | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /**
   * Which list is on screen: one more each time the filter changes. A page of older messages asked
   * for under an earlier list (the manager changed the filter while it was on its way) is dropped
   * when it arrives: it was added to the new filter's list, "Not delivered" listing delivered ones.
   */
  const listFor = useRef(0);
  useEffect(() => {
    let live = true;
    listFor.current++;
    // Another list: what was read of the other one is not part of it, nor is a page still on its way.
    setNewest(null);
    setOlder(null);
    setLoadingOlder(false);
    const read = (): void => {
      const query = new URLSearchParams();
      // Every guest who did not hear from us: refused by the provider, or never to be sent (no
      // provider set up, an offer that ended first, …). `status=failed` alone said "No undelivered
      // messages." during the pilot, when nothing is sent at all.
      if (failedOnly) query.set('undelivered', 'true');
      if (recipient) query.set('to', recipient);
      const qs = query.toString();
      readPage(`/v1/venues/${venueId}/messages${qs ? `?${qs}` : ''}`).then(
        (p) => live && (setNewest(p), setError(null)),
        (err: unknown) => {
          if (!live) return;
          // A venue it was reading a moment ago answers "not found" once the member is removed from
          // its staff: said as the board says it, not as a venue that does not exist.
          setError(err instanceof ApiError && err.status === 404 ? ACCESS_ENDED : messageOf(err));
          // Refused outright (removed from the staff, the role taken away): the guests' messages
          // read before go from the screen too, not only the next ones.
          if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
            setNewest(null);
            setOlder(null);
          }
        },
      );
    };
    read();
    const timer = window.setInterval(read, REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [venueId, failedOnly, recipient]);
  // The cursor of the oldest page read so far (the newest page's, until an older one was read).
  const nextOlder = older ? older.next : (newest?.next ?? null);
  const showOlder = async (path: string): Promise<void> => {
    if (loadingOlder) return;
    const asked = listFor.current;
    setLoadingOlder(true);
    try {
      const p = await readPage(path);
      if (listFor.current !== asked) return;
      setOlder({ messages: [...(older?.messages ?? []), ...p.messages], next: p.next });
      setError(null);
    } catch (err) {
      if (listFor.current === asked) setError(messageOf(err));
    } finally {
      if (listFor.current === asked) setLoadingOlder(false);
    }
  };
  const messages = newest ? merged(newest.messages, older?.messages ?? []) : null;
  const tz = data.venue.value?.timeZone;
  // A text's number as the board's queue and party sheet show it ("(720) 555-0114" at a US venue, with
  // + and the country code from abroad): the manager reads the same number in both places.
  const country = data.venue.value?.country;
  const shownTo = (m: Message): string => (m.channel === 'sms' ? displayPhone(m.to, country) : m.to);
  // A seat pool records no guest messages: with none at all there is nothing to search or filter.
  const nothingToFind = data.venue.value?.policy.seating === 'pool' && messages?.length === 0 && !recipient && !failedOnly;
  // The channels of the listed messages that no provider will hand over, said once above the list.
  const noProvider = (['sms', 'email'] as const).filter((c) =>
    messages?.some((m) => m.channel === c && m.noProvider && m.status === 'recorded' && !m.notSentReason),
  );
  return (
    <main class="page messages">
      {error && (
        <p class="error" role="alert" data-testid="messages-error">
          {error}
        </p>
      )}
      {!nothingToFind && (
        <>
          <form
            class="message-search"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              setRecipient(typed.trim());
            }}
          >
            <input
              class="search"
              type="search"
              name="recipient"
              placeholder="Name, phone or email"
              aria-label="Find the messages to a guest by name, phone or email"
              data-testid="messages-recipient"
              value={typed}
              onInput={(e) => {
                setTyped(e.currentTarget.value);
                // Emptied (the field's clear button too): the whole list again.
                if (e.currentTarget.value.trim() === '') setRecipient('');
              }}
            />
            <button type="submit" class="btn btn-secondary" data-testid="messages-find">
              Find
            </button>
          </form>
          <div class="filters" role="group" aria-label="Show">
            {[false, true].map((only) => (
              <button
                key={String(only)}
                type="button"
                class={`chip-btn${failedOnly === only ? ' on' : ''}`}
                aria-pressed={failedOnly === only}
                data-testid={only ? 'messages-failed-only' : 'messages-all'}
                onClick={() => setFailedOnly(only)}
              >
                {only ? 'Not delivered' : 'All'}
              </button>
            ))}
          </div>
        </>
      )}
      {messages === null && !error && <p class="muted">Loading messages…</p>}
      {messages?.length === 0 && (
        <p class="empty">
          {recipient
            ? `No ${failedOnly ? 'undelivered ' : ''}messages to ${recipient}.`
            : failedOnly
              ? 'No undelivered messages.'
              : boardWords(data.venue.value?.policy.seating).noMessages}
        </p>
      )}
      {noProvider.map((c) => (
        <p key={c} class="info" data-testid="messages-no-provider" data-channel={c}>
          {NO_PROVIDER_WORDS[c]}
        </p>
      ))}
      <ul class="message-list" data-testid="messages">
        {messages?.map((m) => (
          <li
            key={m.id}
            class="message"
            data-testid="message"
            data-id={m.id}
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
                <span class={`status status-${m.status}`} data-testid="message-status" title={m.failureReason ?? m.notSentReason}>
                  {statusInWords(m)}
                </span>
              </span>
              <span class="muted" data-testid="message-to">
                {/* The name isolated (bdi): a right-to-left name would otherwise pull the number after it into its
                    own direction, and "(+64211234567)" would read "(64211234567+)". */}
                to{' '}
                {m.partyName ? (
                  <>
                    <bdi>{m.partyName}</bdi> ({shownTo(m)})
                  </>
                ) : (
                  shownTo(m)
                )}
                {/* In the venue's time, once its zone is read: before, this device's zone gave another hour. */}
                {tz ? ` · ${localDateTime(m.createdAt, tz)}` : ''}
                {/* The time only: the relay hands a message over within minutes of recording it, the same day. */}
                {m.sentAt && tz ? ` · sent ${localTime(m.sentAt, tz)}` : ''}
              </span>
            </header>
            <pre class="body">{m.body}</pre>
          </li>
        ))}
      </ul>
      {nextOlder && messages && (
        <button
          type="button"
          class="btn btn-secondary wide"
          data-testid="messages-older"
          // Not disabled while it reads: a disabled button loses the focus, and a keyboard user was
          // sent back to the top of the page.
          aria-disabled={loadingOlder}
          aria-busy={loadingOlder}
          onClick={() => void showOlder(nextOlder)}
        >
          {loadingOlder ? 'Reading older messages…' : 'Show older messages'}
        </button>
      )}
    </main>
  );
}
