import { countryOfZone } from './venue-country.js';
import { ISO_COUNTRIES, ZONE_COUNTRY } from './zone-countries.js';

describe('a venue’s country from its time zone', () => {
  it('is the one country a zone names, and none for a zone that names no country', () => {
    expect(countryOfZone('America/Chicago')).toBe('US');
    expect(countryOfZone('US/Eastern')).toBe('US');
    expect(countryOfZone('Europe/London')).toBe('GB');
    expect(countryOfZone('Asia/Kolkata')).toBe('IN');
    expect(countryOfZone('UTC')).toBeNull();
    expect(countryOfZone('Etc/GMT+5')).toBeNull();
  });

  it('only ever gives ISO 3166-1 alpha-2 codes', () => {
    expect(Object.values(ZONE_COUNTRY).filter((c) => !ISO_COUNTRIES.has(c))).toEqual([]);
    expect(ISO_COUNTRIES.has('GB')).toBe(true);
    expect(ISO_COUNTRIES.has('UK')).toBe(false);
  });
});
