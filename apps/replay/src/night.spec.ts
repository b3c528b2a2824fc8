import { readFileSync } from 'node:fs';
import { localInstant, nightParties, parseNight } from './night.js';

describe('a replay night', () => {
  const night = parseNight(JSON.parse(readFileSync('examples/nights/busy-friday.json', 'utf8')));

  it('is the same night on every run (seeded), and another seed is another night', () => {
    expect(nightParties(night)).toEqual(nightParties(night));
    expect(nightParties({ ...night, seed: night.seed + 1 })).not.toEqual(nightParties(night));
  });

  it('draws its arrivals inside their blocks, sizes from the file, dining and acceptance from their ranges', () => {
    const parties = nightParties(night);
    expect(parties).toHaveLength(night.arrivals.reduce((n, b) => n + b.parties, 0));
    const first = localInstant(night, night.arrivals[0]?.from ?? '').getTime();
    const last = localInstant(night, night.arrivals[night.arrivals.length - 1]?.to ?? '').getTime();
    for (const p of parties) {
      expect(p.arrivesAt.getTime()).toBeGreaterThanOrEqual(first);
      expect(p.arrivesAt.getTime()).toBeLessThan(last);
      expect(Object.keys(night.partySizes).map(Number)).toContain(p.size);
      expect(p.acceptMinutes).toBeGreaterThanOrEqual(1);
      expect(p.acceptMinutes).toBeLessThanOrEqual(3);
    }
    const couples = parties.filter((p) => p.size <= 2).map((p) => p.diningMinutes);
    expect(Math.min(...couples)).toBeGreaterThanOrEqual(40);
    expect(Math.max(...couples)).toBeLessThanOrEqual(75);
    // In arrival order, numbered from 1.
    expect(parties.map((p) => p.n)).toEqual(parties.map((_, i) => i + 1));
    expect([...parties].sort((a, b) => a.arrivesAt.getTime() - b.arrivesAt.getTime())).toEqual(parties);
  });

  it('refuses a file without its essentials', () => {
    expect(() => parseNight({ name: 'x' })).toThrow('the night file has no "timeZone"');
  });
});
