import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { localInstant, nightParties, type NightFile, type NightParty } from './night.js';
import type { ReplayClient } from './replay.host.js';

interface ModelStats {
  count: number;
  maeMinutes: number | null;
  biasMinutes: number | null;
  within5: number | null;
  within10: number | null;
}

export interface NightResult {
  name: string;
  /** The sandbox venue the night was replayed on. */
  venueId: string;
  parties: number;
  offered: number;
  notOffered: number;
  models: { turns: ModelStats; floor: ModelStats };
  /** How much lower the floor model's MAE is than the formula's, in percent (null: nothing measured). */
  improvement: number | null;
  seconds: number;
}

interface Option {
  tableIds: string[];
  labels: string[];
  capacity: number;
}

const MINUTE = 60_000;

/**
 * Replays one night on a fresh sandbox venue through the HTTP API, minute by minute on its simulated
 * clock: parties join at the desk when they arrive; every few minutes the host offers each waiting
 * party, in order, the smallest free table or approved combination that fits it; a party accepts
 * after a minute or so and is seated at once; it leaves after its dining time and the host clears.
 * Then the quote report of that business date gives both models' figures.
 */
export async function replayNight(api: ReplayClient, night: NightFile): Promise<NightResult> {
  const started = performance.now(); // the replay's own running time, not venue time
  const parties = nightParties(night);
  const windowStart = localInstant(night, night.window.start);
  const pastMidnight = night.window.end <= night.window.start;
  const windowEnd = localInstant(night, night.window.end, pastMidnight);
  const venue = await api.must<{ id: string }>('POST', '/v1/venues', {
    slug: `replay-${randomBytes(5).toString('hex')}`,
    name: night.name,
    timeZone: night.timeZone,
    preset: 'restaurant',
    sandbox: true,
    clock: new Date(windowStart.getTime() - MINUTE).toISOString(),
  });
  const v = `/v1/venues/${venue.id}`;
  const weekday = DateTime.fromISO(night.date).weekday;
  await api.must('POST', `${v}/service-windows`, { days: [weekday], ...night.window });
  const largest = Math.max(...parties.map((p) => p.size), 1);
  await api.must('PATCH', v, { queuePartyCap: Math.min(200, Math.max(8, largest)) });
  const tableId = new Map<string, string>();
  const capacityOf = new Map<string, number>();
  for (const t of night.tables) {
    tableId.set(t.label, (await api.must<{ id: string }>('POST', `${v}/tables`, t)).id);
    capacityOf.set(t.label, t.capacity);
  }
  const options: Option[] = night.tables.map((t) => ({
    tableIds: [tableId.get(t.label) ?? ''],
    labels: [t.label],
    capacity: t.capacity,
  }));
  for (const c of night.combinations ?? []) {
    const ids = c.tables.map((label) => tableId.get(label) ?? '');
    await api.must('POST', `${v}/combinations`, { tableIds: ids, capacity: c.capacity });
    options.push({ tableIds: ids, labels: c.tables, capacity: c.capacity });
  }
  // Smallest first, then fewer tables: the order a host would look for a table.
  options.sort((a, b) => a.capacity - b.capacity || a.tableIds.length - b.tableIds.length);

  const busy = new Set<string>();
  const waiting: Array<{ party: NightParty; entryId: string; version: number }> = [];
  const accepts: Array<{ at: number; offerId: string; reservationId: string; party: NightParty; option: Option }> = [];
  const clears: Array<{ at: number; visitId: string; option: Option }> = [];
  const hostEvery = night.hostEveryMinutes ?? 2;
  let next = 0;
  for (let t = windowStart.getTime(); t < windowEnd.getTime(); t += MINUTE) {
    const arriving: NightParty[] = [];
    while (next < parties.length && parties[next].arrivesAt.getTime() <= t) arriving.push(parties[next++]);
    const dueAccepts = accepts.filter((a) => a.at <= t);
    const dueClears = clears.filter((c) => c.at <= t);
    // The host looks every few minutes; a look that can offer nothing (no free table fits anyone
    // waiting, once this minute's tables are cleared) changes nothing, so the clock need not move for it.
    const freeing = new Set(dueClears.flatMap((c) => c.option.labels));
    const fitsNow = (size: number): boolean =>
      options.some((o) => o.capacity >= size && o.labels.every((l) => !busy.has(l) || freeing.has(l)));
    const hostLooks =
      (t - windowStart.getTime()) % (hostEvery * MINUTE) === 0 &&
      [...waiting.map((w) => w.party), ...arriving].some((p) => fitsNow(p.size));
    if (arriving.length === 0 && dueAccepts.length === 0 && dueClears.length === 0 && !hostLooks) continue;
    await api.must('POST', `${v}/clock`, { now: new Date(t).toISOString() });

    for (const c of dueClears) {
      await api.must('POST', `${v}/visits/${c.visitId}/clear`, {});
      c.option.labels.forEach((l) => busy.delete(l));
      clears.splice(clears.indexOf(c), 1);
    }
    for (const a of dueAccepts) {
      await api.must('POST', `${v}/offers/${a.offerId}/accept`, {});
      const seated = await api.must<{ visit: { id: string } }>('POST', `${v}/reservations/${a.reservationId}/seat`, {});
      clears.push({ at: t + a.party.diningMinutes * MINUTE, visitId: seated.visit.id, option: a.option });
      accepts.splice(accepts.indexOf(a), 1);
    }
    for (const p of arriving) {
      const joined = await api.must<{ entry: { id: string; version: number } }>('POST', `${v}/queue`, {
        name: `Party ${p.n}`,
        partySize: p.size,
        email: `party-${p.n}@replay.example.com`,
      });
      waiting.push({ party: p, entryId: joined.entry.id, version: joined.entry.version });
    }
    if (!hostLooks) continue;
    for (const w of [...waiting]) {
      const option = options.find((o) => o.capacity >= w.party.size && o.labels.every((l) => !busy.has(l)));
      if (!option) continue;
      const offered = await api.must<{ offer: { id: string }; reservation: { id: string } }>('POST', `${v}/offers`, {
        entryId: w.entryId,
        entryVersion: w.version,
        tableIds: option.tableIds,
      });
      option.labels.forEach((l) => busy.add(l));
      accepts.push({
        at: t + w.party.acceptMinutes * MINUTE,
        offerId: offered.offer.id,
        reservationId: offered.reservation.id,
        party: w.party,
        option,
      });
      waiting.splice(waiting.indexOf(w), 1);
    }
  }

  const report = await api.must<{ entries: unknown[]; notOffered: number; models: NightResult['models'] }>(
    'GET',
    `${v}/reports/quotes?from=${night.date}&to=${night.date}`,
  );
  const { turns, floor } = report.models;
  const improvement =
    turns.maeMinutes && floor.maeMinutes !== null
      ? Math.round((1000 * (turns.maeMinutes - floor.maeMinutes)) / turns.maeMinutes) / 10
      : null;
  return {
    name: night.name,
    venueId: venue.id,
    parties: parties.length,
    offered: report.entries.length,
    notOffered: report.notOffered,
    models: report.models,
    improvement,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

const fixed = (x: number | null, sign = false): string => (x === null ? '–' : `${sign && x > 0 ? '+' : ''}${x.toFixed(1)}`);

/** The night's figures, one line per model. */
export function formatResult(r: NightResult): string {
  const row = (model: string, s: ModelStats): string =>
    `  ${model.padEnd(6)} ${fixed(s.maeMinutes).padStart(7)} ${fixed(s.biasMinutes, true).padStart(8)} ${`${fixed(s.within10)} %`.padStart(11)}`;
  return [
    `${r.name}: ${r.parties} parties, ${r.offered} offered a table, ${r.notOffered} never offered (${r.seconds} s)`,
    `  model  MAE min  bias min  within 10`,
    row('turns', r.models.turns),
    row('floor', r.models.floor),
    `  the floor model's MAE is ${r.improvement === null ? '–' : `${r.improvement.toFixed(1)} %`} below the formula's`,
  ].join('\n');
}
