import type { Seating } from './types';

/**
 * The party's credentials, kept only in this browser: the queue token arrives in the URL fragment
 * (`/q/#<token>`, which browsers never send to a server) and moves to localStorage at once, and the
 * fragment is wiped from the address bar; the session, once the token is spent, stays beside it.
 * So a message that links to `/q/` (without the token) opens this party's page on this phone.
 */
const KEY = 'hostboard.queue';

export interface Credentials {
  token: string | null;
  session: { sessionToken: string; expiresAt: string } | null;
  /**
   * The key this phone exchanges `token` with (`POST /v1/queue-sessions {token, key}`), drawn before
   * the first exchange and kept with the token: an exchange whose answer was lost on a weak signal is
   * asked again with the same key, and opens the same session (the token is spent by then).
   */
  key?: string;
  /** The party left from this phone: its link then no longer works, and the page says it left. */
  left?: boolean;
  /**
   * The party's place ended with its day's queue (its link read so, or its entry did): the page opened
   * later says the queue closed, where the ended link alone reads nothing.
   */
  dayClosed?: boolean;
  /** The seats that leave released (a held or a confirmed group's), said again when the page is opened later. */
  released?: { seats: number; held: boolean };
  /** The venue's seating as last read, so a page that can no longer read the entry still uses its words. */
  seating?: Seating;
  /**
   * The venue's name as last read: a link ends with its place (left, removed, the day closed, a session
   * that ran out after seating) and then reads nothing, so the page opened again names the venue from here.
   */
  venueName?: string;
}

const EMPTY: Credentials = { token: null, session: null };

export function loadCredentials(): Credentials {
  try {
    const raw = window.localStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Credentials>) : null;
    return {
      token: parsed?.token ?? null,
      session: parsed?.session ?? null,
      ...(typeof parsed?.key === 'string' && /^[A-Za-z0-9_-]{43}$/.test(parsed.key) ? { key: parsed.key } : {}),
      ...(parsed?.left === true && { left: true }),
      ...(parsed?.dayClosed === true && { dayClosed: true }),
      ...(releasedOf(parsed?.released) ?? {}),
      ...(parsed?.seating === 'pool' || parsed?.seating === 'tables' ? { seating: parsed.seating } : {}),
      ...(typeof parsed?.venueName === 'string' && parsed.venueName !== '' ? { venueName: parsed.venueName } : {}),
    };
  } catch {
    return EMPTY;
  }
}

function releasedOf(r: unknown): { released: NonNullable<Credentials['released']> } | null {
  if (typeof r !== 'object' || r === null) return null;
  const { seats, held } = r as { seats?: unknown; held?: unknown };
  return typeof seats === 'number' && Number.isInteger(seats) && seats > 0 && typeof held === 'boolean'
    ? { released: { seats, held } }
    : null;
}

export function saveCredentials(c: Credentials): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(c));
  } catch {
    // Private mode without storage: the page still works while it stays open.
  }
}

/** A key for an exchange: 32 random bytes, base64url (43 characters), as the server's own secrets. */
export function newExchangeKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** One link: the same token (a session is kept beside the token that opened it), or, with no token, the same session. */
export function sameLink(a: Credentials, b: Credentials): boolean {
  if (a.token !== null || b.token !== null) return a.token === b.token;
  return a.session !== null && a.session.sessionToken === b.session?.sessionToken;
}

/**
 * `own` (a tab's credentials) with what another tab learned of the same link and kept on the phone:
 * the session it opened, that the party left from it and the seats that released (a tab's read begun
 * before that leave would otherwise write it away). The caller has checked both are one link.
 */
export function withStored(own: Credentials, stored: Credentials): Credentials {
  return {
    ...own,
    ...(own.session === null && stored.session !== null && { session: stored.session }),
    ...(own.key === undefined && stored.key !== undefined && { key: stored.key }),
    ...(stored.left && { left: true }),
    ...(stored.dayClosed && { dayClosed: true }),
    ...(stored.released && !own.released && { released: stored.released }),
  };
}

/**
 * Keeps what a tab learned about its own link (its venue's name, the session its act opened, that it
 * left), but only while the phone still keeps that link: tabs share the phone's storage, and the phone
 * remembers the link opened last. A tab left open on an older link (the guest followed another
 * venue's link in a second tab) wrote its link back over the newer one at its Confirm or leave, so
 * /q/ opened again showed the older place and the newer, live one was gone from the phone. Such a tab
 * goes on with its own link in memory. Returns what the tab holds now: a session another tab opened
 * with the same link is taken in (the token alone reads nothing once spent).
 */
export function saveOwnCredentials(previous: Credentials, next: Credentials): Credentials {
  const stored = loadCredentials();
  if (!stored.token && !stored.session) {
    saveCredentials(next);
    return next;
  }
  if (!sameLink(stored, previous) || !sameLink(stored, next)) return next;
  const merged = withStored(next, stored);
  saveCredentials(merged);
  return merged;
}

/**
 * The token a link brought, if any. It is kept at once when the phone keeps nothing else (or it is
 * the token kept already); otherwise it comes back as `incoming` and the page decides (App): a link
 * someone else sent must not silently replace the party's own place on its phone.
 */
export function takeTokenFromFragment(): { kept: Credentials; incoming: string | null } {
  const fragment = fragmentText().replace(/\s+/g, '');
  const kept = loadCredentials();
  if (!fragment) return { kept, incoming: null };
  window.history.replaceState(null, '', window.location.pathname);
  if (fragment === kept.token) return { kept, incoming: null };
  if (!kept.token && !kept.session) {
    const fresh = { token: fragment, session: null };
    saveCredentials(fresh);
    return { kept: fresh, incoming: null };
  }
  return { kept, incoming: fragment };
}

/** The fragment as typed or linked; a malformed escape (a link cut short) is kept as it is, and the server refuses it in words. */
function fragmentText(): string {
  const raw = window.location.hash.replace(/^#/, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
