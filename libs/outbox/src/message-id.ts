import { randomBytes } from 'node:crypto';
import { wallClockMs } from '@hostboard/core';

/** The last id's milliseconds and counter: ids made in one millisecond count up from there. */
let lastMs = 0;
let counter = 0;

/**
 * A message id that sorts in the order messages were recorded: a UUID version 7 (RFC 9562), the
 * milliseconds of the process's wall clock, then a 12-bit counter within the millisecond (method 1),
 * then random bits. Lists and the relay order messages by (created_at, id); created_at is the
 * venue's clock, which at a sandbox venue stands still between moves, so a rehearsed evening had all
 * its messages at one instant, listed in the random order of version 4 ids. The wall clock here only
 * orders; every time a person reads is still the venue's clock.
 */
export function nextMessageId(): string {
  let ms = wallClockMs();
  if (ms > lastMs) {
    lastMs = ms;
    // A random start leaves room to count up within the millisecond.
    counter = randomBytes(2).readUInt16BE(0) & 0x3ff;
  } else {
    // The same millisecond (or the wall clock stepped back): count on from the last id.
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      lastMs = ++ms;
      counter = 0;
    }
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
