import { signal } from '@preact/signals';
import { messageOf } from '../api/client';

export interface Notice {
  kind: 'error' | 'info' | 'ok';
  text: string;
}

/** The one line at the top of the board: a refusal in the API's words, or what an act did. */
export const notice = signal<Notice | null>(null);

let timer = 0;

export function say(kind: Notice['kind'], text: string): void {
  window.clearTimeout(timer);
  notice.value = { kind, text };
  // Refusals stay until dismissed or replaced; confirmations fade.
  if (kind !== 'error') timer = window.setTimeout(() => (notice.value = null), 6000);
}

export function refused(err: unknown): void {
  say('error', messageOf(err));
}
