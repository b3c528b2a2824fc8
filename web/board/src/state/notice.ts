import { signal } from '@preact/signals';
import { messageOf } from '../api/client';

export interface Toast {
  id: number;
  kind: 'error' | 'info' | 'ok' | 'alert';
  text: string;
}

/**
 * Toasts float over the content (they never push the page under the host's finger). Confirmations
 * fade; refusals and alerts (an offer that lapsed) stay until dismissed.
 */
export const toasts = signal<Toast[]>([]);

let next = 1;
/** At most this many at once; alerts and refusals past it wait their turn (`Toasts` says how many). */
export const MAX_SHOWN = 3;
const FADE_MS = 3500;

export function dismiss(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function say(kind: Toast['kind'], text: string): void {
  const id = next++;
  // The host's own act says what it did; the one before it has been said. On a phone three stacked
  // confirmations (offered, accepted, seated, within their few seconds) covered the very row the
  // host was acting on, "Tap again: no-show" under them: one confirmation at a time. A party's
  // news (info), refusals and alerts are kept.
  const kept = kind === 'ok' ? toasts.value.filter((t) => t.kind !== 'ok') : toasts.value;
  const all = [...kept, { id, kind, text }];
  // Drop the oldest confirmations first. A refusal or an alert is never dropped: five offers that
  // lapse together are five alerts, and each stays until the host dismisses it.
  while (all.length > MAX_SHOWN) {
    const i = all.findIndex((t) => t.kind === 'ok' || t.kind === 'info');
    if (i < 0) break;
    all.splice(i, 1);
  }
  toasts.value = all;
  if (kind === 'ok' || kind === 'info') window.setTimeout(() => dismiss(id), FADE_MS);
}

/** Takes the confirmations off the screen: a form's refusal of the next act is not read beside "… saved.". */
export function dropConfirmations(): void {
  toasts.value = toasts.value.filter((t) => t.kind !== 'ok');
}

/**
 * An act refused, in the API's words. The confirmation of the act before it goes: "Table Bar 1
 * saved." stood beside the next rename's refusal, as if that one had been saved too.
 */
export function refused(err: unknown): void {
  dropConfirmations();
  say('error', messageOf(err));
}

/** A sound for alerts where the browser allows it (after a first tap); silent otherwise. */
export function chime(): void {
  try {
    const Ctx = window.AudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here: the toast is the alert.
  }
}
