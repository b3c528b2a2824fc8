import { signal } from '@preact/signals';

/** True while the board is not connected: acts are paused, since the board on screen may be out of date. */
export const offline = signal(false);
