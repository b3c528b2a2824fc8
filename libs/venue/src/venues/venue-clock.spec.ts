import { venueStamp } from './venue-clock.js';

const at = (iso: string): Date => new Date(iso);

describe('a venue-local stamp names the zone as people there write it', () => {
  it.each([
    ['America/Chicago', '2026-07-15T23:05:00Z', '6:05 PM CDT'],
    ['America/Chicago', '2026-01-15T00:05:00Z', '6:05 PM CST'],
    ['Europe/London', '2026-07-15T17:05:00Z', '6:05 PM BST'],
    ['Europe/London', '2026-01-15T18:05:00Z', '6:05 PM GMT'],
    ['Europe/Paris', '2026-07-15T16:05:00Z', '6:05 PM CEST'],
    ['Australia/Sydney', '2026-07-15T08:05:00Z', '6:05 PM AEST'],
    ['Asia/Kolkata', '2026-07-15T12:35:00Z', '6:05 PM IST'],
    ['Pacific/Auckland', '2026-07-15T06:05:00Z', '6:05 PM NZST'],
    // No English name for the zone in any of those locales: its offset.
    ['Asia/Tokyo', '2026-07-15T09:05:00Z', '6:05 PM GMT+9'],
    ['America/Sao_Paulo', '2026-07-15T21:05:00Z', '6:05 PM GMT-3'],
  ])('%s at %s: %s', (zone, instant, stamp) => {
    expect(venueStamp(at(instant), zone)).toBe(stamp);
  });

  it('tells the two 1:35 AMs of the night clocks fall back apart', () => {
    expect(venueStamp(at('2026-11-01T06:35:00Z'), 'America/Chicago')).toBe('1:35 AM CDT');
    expect(venueStamp(at('2026-11-01T07:35:00Z'), 'America/Chicago')).toBe('1:35 AM CST');
    expect(venueStamp(at('2026-10-25T00:35:00Z'), 'Europe/London')).toBe('1:35 AM BST');
    expect(venueStamp(at('2026-10-25T01:35:00Z'), 'Europe/London')).toBe('1:35 AM GMT');
  });
});
