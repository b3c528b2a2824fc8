import { DateTime } from 'luxon';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  replayed: boolean;
}

export interface Counts {
  capacity: number;
  confirmed: number;
  held: number;
  available: number;
}

/** A small HTTP client of the hostboard API: the ledger goes through the same routes as any client. */
export class LedgerClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  async call<T = unknown>(method: string, path: string, body?: unknown, key?: string): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (key) headers['Idempotency-Key'] = key;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : null) as T,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  }

  async must<T = unknown>(method: string, path: string, body?: unknown, key?: string): Promise<T> {
    const a = await this.call<T>(method, path, body, key);
    if (a.status >= 300) throw new Error(`${method} ${path} answered ${a.status}: ${JSON.stringify(a.body)}`);
    return a.body;
  }
}

/** The instant of a venue-local wall time on a date, through the IANA zone. */
export function localInstant(date: string, time: string, zone: string): string {
  const dt = DateTime.fromISO(`${date}T${time.length === 5 ? `${time}:00` : time}`, { zone });
  if (!dt.isValid) throw new Error(`not a time: ${date} ${time} ${zone}`);
  return dt.toUTC().toISO() ?? '';
}
