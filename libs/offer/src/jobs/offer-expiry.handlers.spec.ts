import type { AppConfig, Clock, TransactionRunner } from '@hostboard/core';
import type { JobScheduler } from '@hostboard/jobs';
import type { SweepService } from '../lifecycle/sweep.service.js';
import { OfferExpiryHandlers } from './offer-expiry.handlers.js';

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

function handlers(venues: Venues, sweepsAtOnce: number) {
  let expiryJob: (payload: { venueId: string; offerId: string }) => Promise<string> = () =>
    Promise.reject(new Error('not registered'));
  const scheduler = {
    handle: (name: string, fn: typeof expiryJob) => {
      if (name === 'offer-expiry') expiryJob = fn;
    },
    schedule: async () => undefined,
  } as unknown as JobScheduler;
  const tx = { read: async () => [] } as unknown as TransactionRunner;
  const clock = { now: () => new Date() } as unknown as Clock;
  const config = { EXPIRY_SWEEPS_AT_ONCE: sweepsAtOnce } as AppConfig;
  new OfferExpiryHandlers(scheduler, venues as unknown as SweepService, tx, clock, config).onModuleInit();
  /** An offer falls due and its job fires. */
  return (venueId: string, offerId: string): Promise<string> => {
    venues.due.set(venueId, [...(venues.due.get(venueId) ?? []), offerId]);
    return expiryJob({ venueId, offerId });
  };
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
});
