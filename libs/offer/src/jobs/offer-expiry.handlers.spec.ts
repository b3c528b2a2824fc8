import type { AppConfig, Clock, TransactionRunner } from '@hostboard/core';
import type { JobScheduler } from '@hostboard/jobs';
import type { SweepService } from '../lifecycle/sweep.service.js';
import { EXPIRY_RECHECKS, OfferExpiryHandlers } from './offer-expiry.handlers.js';

/**
 * The coalescing and the bound on sweeps, with a sweep that the test finishes by hand: a sweep
 * "expires" the offers due at its venue when it starts, as the real one reads what is due then.
 */
class Venues {
  readonly due = new Map<string, string[]>();
  readonly started: string[] = [];
  private readonly finish: Array<() => void> = [];
  running = 0;
  mostAtOnce = 0;

  sweepFirst = async (venueId: string): Promise<string[]> => {
    const expired = this.due.get(venueId) ?? [];
    this.due.delete(venueId);
    this.started.push(venueId);
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await new Promise<void>((resolve) => this.finish.push(resolve));
    this.running--;
    return expired;
  };

  /** Lets every sweep running now end, then waits for what that starts. */
  async finishRunning(): Promise<void> {
    for (const f of this.finish.splice(0)) f();
    await settle();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** What the handlers read and schedule besides the sweep, for the cases that need it. */
interface World {
  /** The offer's row as the job's re-read finds it (live, with this deadline), or none. */
  liveOffer?: { expires_at: Date };
  /** Venues the safety sweep's query finds with due offers. */
  dueVenues?: string[];
  /** The venue's earliest live hold after its sweep, as the chain's read finds it, or none. */
  nextLive?: { id: string; expires_at: Date };
  scheduled: Array<{ payload: unknown; jobId: string; runAt: Date }>;
}

function handlers(venues: Venues, sweepsAtOnce: number, world: World = { scheduled: [] }) {
  type Job = (payload: { venueId: string; offerId: string; recheck?: number }) => Promise<string>;
  const registered = new Map<string, Job>();
  const scheduler = {
    handle: (name: string, fn: Job) => registered.set(name, fn),
    // The re-queue after Redis returned is covered end to end (test/e2e/redis-restart-expiry).
    onStoreReturned: () => undefined,
    schedule: async (_name: string, payload: unknown, options: { jobId: string; runAt: Date }) => {
      world.scheduled.push({ payload, ...options });
    },
  } as unknown as JobScheduler;
  const manager = {
    query: async (sql: string) =>
      sql.includes('FROM offers o') ? (world.dueVenues ?? []).map((venue_id) => ({ venue_id })) : [],
  };
  const reads = {
    query: async (sql: string) =>
      sql.includes('ORDER BY o.expires_at, o.id LIMIT 1')
        ? world.nextLive
          ? [world.nextLive]
          : []
        : world.liveOffer
          ? [world.liveOffer]
          : [],
  };
  const tx = {
    read: async (fn: (m: typeof reads) => unknown) => fn(reads),
    run: async (fn: (t: { manager: typeof manager }) => unknown) => fn({ manager }),
  } as unknown as TransactionRunner;
  const clock = { now: () => new Date() } as unknown as Clock;
  const config = { EXPIRY_SWEEPS_AT_ONCE: sweepsAtOnce } as AppConfig;
  new OfferExpiryHandlers(scheduler, venues as unknown as SweepService, tx, clock, config).onModuleInit();
  const job = (name: string): Job => registered.get(name) ?? (() => Promise.reject(new Error(`${name} not registered`)));
  /** An offer falls due and its job fires. */
  const fire = (venueId: string, offerId: string): Promise<string> => {
    venues.due.set(venueId, [...(venues.due.get(venueId) ?? []), offerId]);
    return job('offer-expiry')({ venueId, offerId });
  };
  return Object.assign(fire, { job });
}

describe('offer expiry jobs', () => {
  it('sweeps at most EXPIRY_SWEEPS_AT_ONCE venues at once, and every job finds its offer expired', async () => {
    const venues = new Venues();
    const fire = handlers(venues, 2);
    const jobs = Array.from({ length: 6 }, (_, i) => fire(`v${i}`, `o${i}`));
    await settle();
    expect(venues.started).toEqual(['v0', 'v1']);
    for (let round = 0; round < 3; round++) await venues.finishRunning();
    expect(await Promise.all(jobs)).toEqual(Array(6).fill('done'));
    expect(venues.started).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    expect(venues.mostAtOnce).toBe(2);
  });

  it('jobs of a venue whose sweep waits for its turn share that sweep', async () => {
    const venues = new Venues();
    const fire = handlers(venues, 1);
    const busy = fire('other', 'x');
    await settle();
    const jobs = [fire('v', 'a'), fire('v', 'b'), fire('v', 'c')];
    await settle();
    await venues.finishRunning();
    await venues.finishRunning();
    expect(await Promise.all([busy, ...jobs])).toEqual(['done', 'done', 'done', 'done']);
    expect(venues.started).toEqual(['other', 'v']);
  });

  it('a job that arrives while its venue is being swept waits for one next sweep, shared with the jobs after it', async () => {
    const venues = new Venues();
    const fire = handlers(venues, 4);
    const first = fire('v', 'a');
    await settle();
    expect(venues.started).toEqual(['v']);
    // Due after the running sweep read what was due: that sweep cannot have seen them.
    const later = [fire('v', 'b'), fire('v', 'c')];
    await settle();
    expect(venues.started).toEqual(['v']);
    await venues.finishRunning();
    expect(venues.started).toEqual(['v', 'v']);
    await venues.finishRunning();
    expect(await Promise.all([first, ...later])).toEqual(['done', 'done', 'done']);
    expect(venues.mostAtOnce).toBe(1);
  });

  it('a job that fired a moment before its deadline (its sweep found the offer not yet due) sweeps once more', async () => {
    const venues = new Venues();
    const world: World = { liveOffer: { expires_at: new Date(Date.now() - 1) }, scheduled: [] };
    const { job } = handlers(venues, 4, world);
    // Not due for the first sweep; due for the second (it has passed when the job re-reads it).
    const outcome = job('offer-expiry')({ venueId: 'v', offerId: 'a' });
    await settle();
    venues.due.set('v', ['a']);
    await venues.finishRunning();
    await venues.finishRunning();
    expect(await outcome).toBe('done');
    expect(venues.started).toEqual(['v', 'v']);
    expect(world.scheduled).toEqual([]);
  });

  it('a job that fired well before its deadline is scheduled again under a new id each time, a few times', async () => {
    const venues = new Venues();
    const deadline = new Date(Date.now() + 60_000);
    const world: World = { liveOffer: { expires_at: deadline }, scheduled: [] };
    const { job } = handlers(venues, 4, world);
    for (const recheck of [0, 1, 2, EXPIRY_RECHECKS]) {
      const outcome = job('offer-expiry')({ venueId: 'v', offerId: 'a', recheck });
      await settle();
      await venues.finishRunning();
      expect(await outcome).toBe('skipped');
    }
    expect(world.scheduled.map((s) => s.jobId)).toEqual(['a-again-1', 'a-again-2', 'a-again-3']);
    expect(world.scheduled.map((s) => s.runAt)).toEqual([deadline, deadline, deadline]);
    expect(world.scheduled[2]?.payload).toEqual({ venueId: 'v', offerId: 'a', recheck: 3 });
  });

  it('after its sweep, a job schedules the job of the venue’s earliest live hold (made while this one was live, it has none)', async () => {
    const venues = new Venues();
    const next = { id: 'b', expires_at: new Date(Date.now() + 30_000) };
    const world: World = { nextLive: next, scheduled: [] };
    const fire = handlers(venues, 4, world);
    const outcome = fire('v', 'a');
    await settle();
    await venues.finishRunning();
    expect(await outcome).toBe('done');
    expect(world.scheduled).toEqual([{ payload: { venueId: 'v', offerId: 'b' }, jobId: 'b', runAt: next.expires_at }]);
  });

  it('a pool venue’s job (each of its holds has its own) reads and schedules no next one', async () => {
    const venues = new Venues();
    const world: World = { nextLive: { id: 'b', expires_at: new Date(Date.now() + 30_000) }, scheduled: [] };
    const { job } = handlers(venues, 4, world);
    venues.due.set('v', ['a']);
    const outcome = job('offer-expiry')({ venueId: 'v', offerId: 'a', pool: true } as never);
    await settle();
    await venues.finishRunning();
    expect(await outcome).toBe('done');
    expect(world.scheduled).toEqual([]);
  });

  it('jobs that share a sweep schedule the next hold’s job once', async () => {
    const venues = new Venues();
    const world: World = { nextLive: { id: 'c', expires_at: new Date(Date.now() + 30_000) }, scheduled: [] };
    const fire = handlers(venues, 1, world);
    const busy = fire('other', 'x');
    await settle();
    const jobs = [fire('v', 'a'), fire('v', 'b')];
    await settle();
    await venues.finishRunning();
    await venues.finishRunning();
    expect(await Promise.all([busy, ...jobs])).toEqual(['done', 'done', 'done']);
    // One for the other venue's sweep, one for v's shared one.
    expect(world.scheduled.map((s) => s.jobId)).toEqual(['c', 'c']);
  });

  it('the safety sweep sweeps every venue with due offers even when one of them fails, then reports the failure', async () => {
    const venues = new Venues();
    const world: World = { dueVenues: ['a', 'broken', 'c'], scheduled: [] };
    const { job } = handlers(venues, 4, world);
    const sweepFirst = venues.sweepFirst;
    venues.sweepFirst = (venueId: string) =>
      venueId === 'broken' ? Promise.reject(new Error('lock timeout')) : sweepFirst(venueId);
    const outcome = expect(job('safety-sweep')({} as never)).rejects.toThrow('failed at 1 of 3 venue(s)');
    for (let i = 0; i < 3; i++) {
      await settle();
      await venues.finishRunning();
    }
    await outcome;
    expect(venues.started).toEqual(['a', 'c']);
  });
});
