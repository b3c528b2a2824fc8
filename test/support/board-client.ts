import { io, type Socket } from 'socket.io-client';

export interface BoardEvent {
  venueId: string;
  version: number;
  type: string;
  data: Record<string, unknown>;
}

/** A real socket.io client of the `/board` namespace that records what it receives. */
export class BoardClient {
  readonly socket: Socket;
  readonly events: BoardEvent[] = [];

  constructor(baseUrl: string, token: string | undefined, extraHeaders: Record<string, string> = {}) {
    this.socket = io(`${baseUrl}/board`, {
      auth: token === undefined ? {} : { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders,
    });
    this.socket.on('board.event', (e: BoardEvent) => this.events.push(e));
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', (err) => reject(err));
    });
  }

  refused(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => reject(new Error('connected, expected a refusal')));
      this.socket.once('connect_error', (err) => resolve(err.message));
    });
  }

  subscribe(venueId: string, sinceVersion?: number): Promise<Record<string, unknown>> {
    return this.socket
      .timeout(10_000)
      .emitWithAck('subscribe', sinceVersion === undefined ? { venueId } : { venueId, sinceVersion });
  }

  close(): void {
    this.socket.disconnect();
  }
}

export async function waitFor(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
