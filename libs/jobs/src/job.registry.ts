/**
 * The one list of jobs: names, payloads and options. A job is a trigger; the database row is the
 * truth, and every handler re-reads it and is safe to run twice or late.
 */
export const QUEUE_NAME = 'hostboard';

export interface JobPayloads {
  /** Expires one offer at its deadline (job id = offer id); sweeps its venue under the lock. */
  'offer-expiry': {
    venueId: string;
    offerId: string;
    /** Scheduled again after firing before the deadline: the how-manyth time. */
    recheck?: number;
    /** A pool venue's hold: each has a job of its own, so its run schedules no other (OfferExpiryHandlers). */
    pool?: true;
  };
  /** The safety net: sweeps every venue with a due offer, catching jobs lost to a restart. */
  'safety-sweep': Record<string, never>;
  /** Hands recorded emails to the provider, when one is configured. */
  'outbox-relay': Record<string, never>;
  /** Deletes stored Idempotency-Key answers past their retention. */
  'idempotency-purge': Record<string, never>;
}

export type JobName = keyof JobPayloads;

export type JobHandler<N extends JobName> = (payload: JobPayloads[N]) => Promise<'done' | 'skipped'>;

/** Named option presets (attempts and backoff for a failed run). */
export const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential' as const, delay: 1000 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600 },
};

/** The safety-net sweep's interval: a lost expiry job is caught within this (plus the sweep's own time). */
export const SAFETY_SWEEP_MS = 15_000;

/** Repeating jobs and their interval. */
export const REPEATING: Array<{ name: JobName; everyMs: number }> = [
  { name: 'idempotency-purge', everyMs: 3600_000 },
  { name: 'safety-sweep', everyMs: SAFETY_SWEEP_MS },
  { name: 'outbox-relay', everyMs: 5_000 },
];

/** BullMQ refuses job ids with `:`; ids are UUIDs or `<name>-<uuid>`. */
export function assertJobId(id: string): string {
  if (id.includes(':') || /^\d+$/.test(id)) throw new Error(`invalid job id ${id}`);
  return id;
}
