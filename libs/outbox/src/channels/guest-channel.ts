import type { OutboxChannel } from '../outbox-message.entity.js';

export interface OutgoingMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
}

/** One provider behind the outbox: the relay hands it claimed messages of its channel. */
export interface GuestChannel {
  readonly channel: OutboxChannel;
  /** False: no provider configured; messages of this channel stay `recorded`. */
  readonly configured: boolean;
  /** Resolves once the provider took the message; rejects with the provider's reason. */
  send(m: OutgoingMessage): Promise<void>;
}
