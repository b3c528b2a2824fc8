import { Injectable } from '@nestjs/common';

export interface BoardEventMessage {
  venueId: string;
  version: number;
  type: string;
  data: object;
}

type Listener = (event: BoardEventMessage) => void;

/**
 * Hands committed board events to whoever pushes them (the socket gateway). Called only after
 * commit, so nothing is pushed for a transaction that rolled back.
 */
@Injectable()
export class BoardPublisher {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(events: BoardEventMessage[]): void {
    for (const e of events) for (const l of this.listeners) l(e);
  }
}
