import { computed, signal } from '@preact/signals';

// The one place the page reads the wall clock. Countdowns (minutes and seconds) re-render from this
// signal: four ticks a second keep the second they show within a quarter second of the venue's clock.
export const wallNow = signal(Date.now());

window.setInterval(() => {
  wallNow.value = Date.now();
}, 250);

/**
 * The wall clock to the second, for what reads in minutes or turns at an instant (how long a party
 * has waited, a table's turn, a booking come due, a service window opening): it changes once a
 * second, not four times. Read it, or `wallNow`, only in the small component that shows the time: a
 * component that reads a signal renders again at each change, and a board that read it at the top
 * re-rendered its 200 rows and the floor four times a second while nothing on it moved.
 */
export const wallSecond = computed(() => Math.floor(wallNow.value / 1000) * 1000);

export function readWallClock(): number {
  return Date.now();
}
