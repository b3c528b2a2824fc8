/** A refusal from the API, in its own words (`error.message`), or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An Idempotency-Key. Not crypto.randomUUID: a tablet on plain http (no secure context) lacks it. */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const UNREACHABLE = 'The server cannot be reached. Check the connection and try again.';

/** A tap that got no answer, repeated within this long, is the same act again (ApiClient.keyed). */
const RETRY_WINDOW_MS = 60_000;

/** A 53-bit digest of a string (cyrb53): a lookup key, not a secret; what it digests is not kept. */
function digest(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** A request unanswered this long is given up (a tablet on bad wifi must not wait forever). */
const REQUEST_TIMEOUT_MS = 10_000;

interface Envelope {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

function refusal(status: number, body: unknown): ApiError {
  const e = (body as Envelope | null)?.error;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    return new ApiError(status, e.code, e.message, (e.details as Record<string, unknown>) ?? {});
  }
  return new ApiError(status, 'HTTP_' + String(status), `The server answered ${status}.`);
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as `Authorization: QueueSession …` instead of the staff bearer token. */
  queueSession?: string;
  /**
   * POSTs carry one, so a retried tap does the act once (API.md "Retries"): by default a fresh key,
   * or the key of the same POST (path and body) that got no answer at all. Given explicitly, it is
   * used as given (undefined: none, where a replay would hand a secret to whoever repeats it).
   */
  idempotencyKey?: string;
  /** Sees the answer's headers (a list's `Link: <…>; rel="next"`). */
  onHeaders?: (headers: Headers) => void;
}

/** The next page's URL from a `Link: <…>; rel="next"` header (RFC 8288), or null. */
export function nextLink(header: string | null): string | null {
  return header ? (/<([^>]+)>\s*;\s*rel="next"/.exec(header)?.[1] ?? null) : null;
}

/** JSON over HTTP to the same origin, with the staff session token. */
export class ApiClient {
  /**
   * The keys of POSTs and DELETEs that got no answer (the network, a timeout), by session, method,
   * path and body (a digest: no password kept). The server may have acted: the same tap again soon
   * after is the same act, and the key makes the server answer it with what it did the first time (a
   * "Promote next group" tapped again after a lost answer holds one group, not two). Any answer, a
   * refusal too, ends the key's reuse, and so does time: the same tap minutes later means the next
   * group, not a retry (RETRY_WINDOW_MS).
   */
  private readonly unanswered = new Map<string, { key: string; at: number }>();

  constructor(
    private readonly token: () => string | null,
    private readonly onSignedOut: () => void,
  ) {}

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown = {}, options: RequestOptions = {}): Promise<T> {
    return this.keyed<T>('POST', path, { ...options, body });
  }

  /** A DELETE with a key, like a POST: a retried "Remove" after a lost answer reads as done, not "not found". */
  delete<T = void>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.keyed<T>('DELETE', path, options);
  }

  /** A request with an Idempotency-Key: the one given, or the unanswered same act's, or a fresh one (`unanswered`). */
  private keyed<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    if ('idempotencyKey' in options) return this.request<T>(method, path, options);
    // Elapsed time, not a time of day: the monotonic clock.
    const now = performance.now();
    for (const [act, lost] of this.unanswered) if (now - lost.at > RETRY_WINDOW_MS) this.unanswered.delete(act);
    const act = digest(`${this.token() ?? ''}\n${method} ${path}\n${JSON.stringify(options.body ?? null)}`);
    const idempotencyKey = this.unanswered.get(act)?.key ?? newKey();
    return this.request<T>(method, path, { ...options, idempotencyKey }).then(
      (answer) => {
        this.unanswered.delete(act);
        return answer;
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 0) this.unanswered.set(act, { key: idempotencyKey, at: performance.now() });
        else this.unanswered.delete(act);
        throw err;
      },
    );
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = this.token();
    if (options.queueSession) headers['Authorization'] = `QueueSession ${options.queueSession}`;
    else if (token) headers['Authorization'] = `Bearer ${token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    let res: Response;
    let text: string;
    try {
      res = await fetch(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: abort.signal,
      });
      text = await res.text();
      options.onHeaders?.(res.headers);
    } catch {
      throw new ApiError(0, 'UNREACHABLE', UNREACHABLE);
    } finally {
      clearTimeout(timer);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) {
      const err = refusal(res.status, body);
      // The staff session lapsed or was revoked: back to the login form (not for a party's token).
      if (err.code === 'UNAUTHENTICATED' && !options.queueSession && token) this.onSignedOut();
      throw err;
    }
    return body as T;
  }
}

/**
 * A table taken by another party, in a host's words: the API names the placement with its state
 * ("Table B1 is already planned for Kenji (HELD).", API.md's CONFLICT), which read as a code on the
 * board. Other CONFLICT messages ("… is kept for …") are already plain and pass through.
 */
function takenTable(err: ApiError): string | null {
  const p = err.details['placement'] as { label?: unknown; name?: unknown; state?: unknown } | undefined;
  if (err.code !== 'CONFLICT' || typeof p?.label !== 'string' || typeof p.name !== 'string') return null;
  if (err.message !== `Table ${p.label} is already planned for ${p.name} (${String(p.state)}).`) return null;
  if (p.state === 'HELD') return `Table ${p.label} is offered to ${p.name} right now.`;
  if (p.state === 'CONFIRMED') return `Table ${p.label} is booked for ${p.name}.`;
  return null;
}

/**
 * Whether a refusal is the one its `details.reason` names (a code, steady when the API's words are
 * reworded); from a server that gives no reason, whether its message is those words.
 */
function refusedFor(err: ApiError, reason: string, words: string): boolean {
  const given = err.details['reason'];
  return given === undefined ? err.message === words : given === reason;
}

/**
 * A table's name already used, in the words of Set up's fields ("Table name", "Name or number"): the
 * API's "A table with this label already exists at this venue." named a field no one sees
 * (`details.reason` `label-taken`).
 */
function nameTaken(err: ApiError): string | null {
  if (err.code !== 'CONFLICT' || err.details['field'] !== 'label') return null;
  if (!refusedFor(err, 'label-taken', 'A table with this label already exists at this venue.')) return null;
  return 'Another table already has this name: choose a different one.';
}

/**
 * Seat refused because the party is no longer waiting to be seated, usually as another screen acted
 * first: the API's "A SEATED reservation cannot be seated; confirm it first." read as a code, and
 * told the host to do what could not be done (`details.reason` `not-seatable`, `details.state`).
 */
const NOT_TO_SEAT: Record<string, string> = {
  SEATED: 'They are already seated: another screen seated them.',
  COMPLETED: 'They have already left: their table was cleared.',
  CANCELLED: 'They are no longer booked: the table was given back.',
  EXPIRED: 'Their offer ran out before it was accepted.',
  HELD: 'Their offer is not accepted yet: accept it for them first.',
};
function notToSeat(err: ApiError): string | null {
  const state = err.details['state'];
  if (err.code !== 'RULE_VIOLATION' || typeof state !== 'string') return null;
  if (!refusedFor(err, 'not-seatable', `A ${state} reservation cannot be seated; confirm it first.`)) return null;
  return NOT_TO_SEAT[state] ?? null;
}

/** What to show for any failure: the API's own message, or the network's. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return takenTable(err) ?? nameTaken(err) ?? notToSeat(err) ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
