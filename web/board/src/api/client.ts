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
  /** POSTs carry one, so a retried tap does the act once (API.md "Retries"). */
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
  constructor(
    private readonly token: () => string | null,
    private readonly onSignedOut: () => void,
  ) {}

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown = {}, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { idempotencyKey: newKey(), ...options, body });
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = this.token();
    if (options.queueSession) headers['Authorization'] = `QueueSession ${options.queueSession}`;
    else if (token) headers['Authorization'] = `Bearer ${token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const abort = new AbortController();
    const timer = window.setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
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
      window.clearTimeout(timer);
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

/** What to show for any failure: the API's own message, or the network's. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
