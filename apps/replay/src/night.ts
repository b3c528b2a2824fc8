import { DateTime } from 'luxon';

/** A service night to replay: the floor, the window, and the seeded shape of its arrivals. */
export interface NightFile {
  name: string;
  timeZone: string;
  /** The business date, venue-local (YYYY-MM-DD). */
  date: string;
  seed: number;
  window: { start: string; end: string; turnMinutes: number };
  tables: Array<{ label: string; capacity: number }>;
  combinations?: Array<{ tables: string[]; capacity: number }>;
  /** Arrivals: `parties` parties at random minutes in [from, to). */
  arrivals: Array<{ from: string; to: string; parties: number }>;
  /** Party size → relative weight. */
  partySizes: Record<string, number>;
  /** Largest party size of a band → [min, max] minutes at the table (seat → clear). */
  diningMinutes: Record<string, [number, number]>;
  /** How long a party takes to accept an offer, [min, max] minutes (under the five-minute hold). */
  acceptMinutes?: [number, number];
  /** The host looks at the floor every this many minutes. */
  hostEveryMinutes?: number;
}

export interface NightParty {
  n: number;
  arrivesAt: Date;
  size: number;
  diningMinutes: number;
  acceptMinutes: number;
}

/** A small seeded generator (mulberry32): the same file gives the same night, every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The instant of a venue-local wall time on the night's date (a time before the window's start is the next day). */
export function localInstant(night: Pick<NightFile, 'date' | 'timeZone'>, hhmm: string, nextDay = false): Date {
  const dt = DateTime.fromISO(`${night.date}T${hhmm}`, { zone: night.timeZone }).plus({ days: nextDay ? 1 : 0 });
  if (!dt.isValid) throw new Error(`not a time: ${night.date} ${hhmm} ${night.timeZone}`);
  return dt.toJSDate();
}

export function parseNight(raw: unknown): NightFile {
  const n = raw as NightFile;
  for (const key of [
    'name',
    'timeZone',
    'date',
    'seed',
    'window',
    'tables',
    'arrivals',
    'partySizes',
    'diningMinutes',
  ] as const) {
    if (n?.[key] === undefined) throw new Error(`the night file has no "${key}"`);
  }
  if (n.tables.length === 0) throw new Error('the night file has no tables');
  return n;
}

/** The night's parties, in arrival order, drawn from its seed. */
export function nightParties(night: NightFile): NightParty[] {
  const rnd = random(night.seed);
  const between = (min: number, max: number): number => min + Math.floor(rnd() * (max - min + 1));
  const sizes = Object.entries(night.partySizes).map(([size, weight]) => ({ size: Number(size), weight }));
  const total = sizes.reduce((s, x) => s + x.weight, 0);
  const bands = Object.entries(night.diningMinutes)
    .map(([upTo, range]) => ({ upTo: Number(upTo), range }))
    .sort((a, b) => a.upTo - b.upTo);
  const [acceptMin, acceptMax] = night.acceptMinutes ?? [1, 3];
  const startsPastMidnight = (hhmm: string): boolean => hhmm < night.window.start;
  const parties: Omit<NightParty, 'n'>[] = [];
  for (const block of night.arrivals) {
    const from = localInstant(night, block.from, startsPastMidnight(block.from)).getTime();
    const to = localInstant(night, block.to, startsPastMidnight(block.to)).getTime();
    const minutes = Math.max(1, Math.round((to - from) / 60_000));
    for (let i = 0; i < block.parties; i++) {
      const arrivesAt = new Date(from + Math.floor(rnd() * minutes) * 60_000);
      let pick = rnd() * total;
      const size = sizes.find((s) => (pick -= s.weight) < 0)?.size ?? sizes[sizes.length - 1]?.size ?? 2;
      const band = bands.find((b) => size <= b.upTo) ?? bands[bands.length - 1];
      if (!band) throw new Error('the night file has no dining minutes');
      parties.push({ arrivesAt, size, diningMinutes: between(...band.range), acceptMinutes: between(acceptMin, acceptMax) });
    }
  }
  return parties.sort((a, b) => a.arrivesAt.getTime() - b.arrivesAt.getTime()).map((p, i) => ({ ...p, n: i + 1 }));
}
