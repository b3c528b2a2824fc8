import { localTime } from '../../board/src/local-time';

/**
 * A hold's deadline as the guest reads it beside its countdown: the venue-local time ("8:20 PM", with
 * its zone in the hour the clocks go back), and its seconds when it does not fall on a whole minute.
 * A hold runs from the second it was made (the workshop guide: "Preserve the full time: a 09:05:30
 * promotion expires at 09:35:30"): a 7-minute hold made at 8:13:42 PM read "expires at 8:20 PM" while
 * it lasted until 8:20:42, and a guest looking at the phone's clock at 8:20:15 took it for lapsed while
 * the countdown beside it said 0:27. The seconds shown are the deadline's own, cut (never rounded up):
 * the page promises no moment the hold does not give. No zone in use today has an offset with seconds,
 * so the venue-local second is the instant's.
 */
export function deadlineTime(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  const time = localTime(iso, timeZone);
  if (Number.isNaN(at)) return time;
  const seconds = Math.floor(at / 1000) % 60;
  return seconds === 0 ? time : time.replace(/^(\d{1,2}:\d{2})/, `$1:${String(seconds).padStart(2, '0')}`);
}
