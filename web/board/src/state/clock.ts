import { signal } from '@preact/signals';

// The one place the page reads the wall clock. Countdowns re-render from this signal only.
export const wallNow = signal(Date.now());

window.setInterval(() => {
  wallNow.value = Date.now();
}, 250);

export function readWallClock(): number {
  return Date.now();
}
