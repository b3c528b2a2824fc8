import type { RowExpectation } from '@hostboard/allocator';
import { LedgerClient, localInstant, type ApiAnswer, type Counts } from './ledger.client.js';
import { differences, paperProblems, type Figures } from './row-check.js';
import { modelLedger } from './worksheet-model.js';
import {
  keySafe,
  refuseAmbiguousJoins,
  refuseTimesOutOfOrder,
  stepOperation,
  type Step,
  type Transaction,
  type Worksheet,
} from './worksheet.js';

/** One row checked three ways: the worksheet's own figures, the policy model's, and the app's. */
export interface RowResult {
  op: string;
  time: string;
  action: string;
  passed: boolean;
  expected: Transaction['expect'];
  /** What the policy gives (absent when a row runs without the model, e.g. a boundary's setup). */
  model?: Figures;
  observed: Figures;
  /** Where the organizer's paper arithmetic disagrees with the policy, naming the row and both figures. */
  worksheetIssues: string[];
  /** Where the app disagrees with the policy. */
  appIssues: string[];
  notes: string[];
}

interface StepRun {
  ok: boolean;
  /** For promotions: whom the app held seats for (null: nobody). */
  held?: string | null;
}

interface QueueAnswer {
  entries: Array<{ id: string; name: string; status: string; queueSequence: number }>;
  head?: { reason: string | null };
}

/**
 * A sandbox venue set up from a worksheet, driven through the HTTP API. Every reference of the
 * worksheet (A, W-01) is a name; the session remembers the ids behind them.
 */
export class LedgerSession {
  readonly entries = new Map<string, string>();
  readonly reservations = new Map<string, string>();
  readonly offers = new Map<string, string>();
  /** The reservation a promotion created for a waiting group, by its reference. */
  readonly holds = new Map<string, string>();
  /**
   * Where a group's seats were released, once they were: a repeated cancellation is the same request
   * again. (A group that accepted its hold is cancelled through its reservation; once that reservation
   * is cancelled, a repeat chose the queue entry's cancel instead, another request under the first
   * one's Idempotency-Key, which the app rightly refused.)
   */
  private readonly cancelPaths = new Map<string, string>();
  private readonly stepsByOp = new Map<string, Step[]>();
  /** The cancel path a step took the first time it ran, by its Idempotency-Key (as offerOfStep for offers). */
  private readonly cancelPathOfStep = new Map<string, string>();
  /**
   * The offer an accept or expire step named the first time it ran, by its Idempotency-Key: a retry
   * is that operation again, even after the group was offered again (keep-place) or rejoined.
   */
  private readonly offerOfStep = new Map<string, string>();
  venueId = '';

  constructor(
    readonly client: LedgerClient,
    readonly sheet: Worksheet,
  ) {}

  at(time: string): string {
    return localInstant(this.sheet.date, time, this.sheet.timeZone);
  }

  /** A fresh sandbox venue with the worksheet's policy, registrations and waiting requests. */
  async setUp(slug: string): Promise<void> {
    const s = this.sheet;
    // Again here, not only when parsed: a caller may have changed the policy (keep-place puts a lapsed group back).
    refuseTimesOutOfOrder(s);
    refuseAmbiguousJoins(s);
    const venue = await this.client.must<{ id: string }>('POST', '/v1/venues', {
      slug,
      name: s.name,
      timeZone: s.timeZone,
      preset: 'workshop',
      poolCapacity: s.capacity,
      sandbox: true,
      clock: this.at(s.start),
      ...(s.decisions && { decisions: s.decisions }),
    });
    this.venueId = venue.id;
    await this.client.must('PATCH', `/v1/venues/${venue.id}`, { policy: s.policy });
    for (const r of s.reservations) {
      const made = await this.client.must<{ id: string }>('POST', this.path('/reservations'), {
        name: r.ref,
        partySize: r.partySize,
      });
      this.reservations.set(r.ref, made.id);
    }
    for (const w of s.waiting) {
      await this.moveClock(w.received);
      const a = await this.join(w.ref, w.partySize);
      if (a.status === 201 && w.sequence !== undefined && a.body.entry.queueSequence !== w.sequence)
        throw new Error(`${w.ref} got queue sequence ${a.body.entry.queueSequence}, the worksheet says ${w.sequence}`);
    }
  }

  path(p: string): string {
    return `/v1/venues/${this.venueId}${p}`;
  }

  /**
   * Moves the sandbox clock to a worksheet time (venue-local HH:mm[:ss] on its date) or to an instant
   * (epoch ms). The boundary cases pass instants: a time they derive (an expiry and a second either
   * side) may fall in the hour the clocks repeat, where the wall time alone names two instants.
   */
  async moveClock(time: string | number): Promise<string[]> {
    const now = typeof time === 'number' ? new Date(time).toISOString() : this.at(time);
    const a = await this.client.must<{ expired: string[] }>('POST', this.path('/clock'), { now });
    return a.expired;
  }

  async join(ref: string, partySize: number, key?: string): Promise<ApiAnswer<{ entry: { id: string; queueSequence: number } }>> {
    const a = await this.client.call<{ entry: { id: string; queueSequence: number } }>(
      'POST',
      this.path('/queue'),
      { name: ref, partySize },
      key,
    );
    if (a.status === 201 && !a.replayed) {
      // The name now means this new request (a rejoin): the ids of its earlier registration, offer and hold are stale.
      this.reservations.delete(ref);
      this.offers.delete(ref);
      this.holds.delete(ref);
      this.cancelPaths.delete(ref);
      this.entries.set(ref, a.body.entry.id);
    }
    return a;
  }

  async counts(): Promise<Counts> {
    return this.client.must<Counts>('GET', this.path('/counts'));
  }

  async queue(): Promise<QueueAnswer> {
    return this.client.must<QueueAnswer>('GET', this.path('/queue'));
  }

  /** Names of the entries still waiting, in waiting order (the worksheet's "active waiting queue"). */
  async waitingNames(): Promise<string[]> {
    return (await this.queue()).entries.filter((e) => e.status === 'waiting').map((e) => e.name);
  }

  async promote(key?: string): Promise<ApiAnswer<PromotionAnswer>> {
    const a = await this.client.call<PromotionAnswer>('POST', this.path('/promotions'), {}, key);
    const offer = a.body?.offer;
    if (offer) {
      const ref = [...this.entries].find(([, id]) => id === offer.entryId)?.[0];
      if (ref) {
        this.offers.set(ref, offer.id);
        if (a.body.reservation) this.holds.set(ref, a.body.reservation.id);
      }
    }
    return a;
  }

  async accept(ref: string, key?: string): Promise<ApiAnswer> {
    const offerId = this.offerFor(ref, key);
    // Under another policy the party may never have been offered: that is a failed row, not a crash.
    if (!offerId)
      return { status: 0, body: { error: { code: 'NO_OFFER', message: `${ref} has no offer to accept` } }, replayed: false };
    return this.client.call('POST', this.path(`/offers/${offerId}/accept`), {}, key);
  }

  /**
   * Cancels a registration (A, B, C) or a queue entry (W-01) by its worksheet name. A group that
   * accepted its hold is a confirmed reservation by then: its reservation is what releases the seats.
   */
  async cancel(ref: string, key?: string): Promise<ApiAnswer> {
    // A retry is the first request again: after the group rejoined under its name, its name means the
    // new entry, and sending the old key there was another request under a used key (refused, 422).
    const first = key === undefined ? undefined : this.cancelPathOfStep.get(key);
    const path = first ?? (await this.cancelPath(ref));
    const a = await this.client.call('POST', path, {}, key);
    if (first === undefined) {
      if (a.status === 200) this.cancelPaths.set(ref, path);
      if (key !== undefined) this.cancelPathOfStep.set(key, path);
    }
    return a;
  }

  private async cancelPath(ref: string): Promise<string> {
    const before = this.cancelPaths.get(ref);
    if (before) return before;
    const reservationId = this.reservations.get(ref);
    if (reservationId) return this.path(`/reservations/${reservationId}/cancel`);
    const holdId = this.holds.get(ref);
    if (holdId) {
      const all = await this.client.must<Array<{ id: string; state: string }>>('GET', this.path('/reservations?limit=500'));
      if (all.find((r) => r.id === holdId)?.state === 'CONFIRMED') return this.path(`/reservations/${holdId}/cancel`);
    }
    const entryId = this.entries.get(ref);
    if (entryId) return this.path(`/queue/${entryId}/cancel`);
    throw new Error(`unknown reference ${ref}`);
  }

  /** The offer a step under `key` names: the one it named the first time, else the group's latest. */
  private offerFor(ref: string, key?: string): string | undefined {
    const first = key === undefined ? undefined : this.offerOfStep.get(key);
    if (first) return first;
    const offerId = this.offers.get(ref);
    if (key !== undefined && offerId) this.offerOfStep.set(key, offerId);
    return offerId;
  }

  async offerState(ref: string, key?: string): Promise<string | undefined> {
    const entryId = this.entries.get(ref);
    const offerId = this.offerFor(ref, key);
    if (!entryId || !offerId) return undefined;
    // History is newest first and paged: the offer's own rows, the latest first.
    const rows = await this.client.must<Array<{ subjectType: string; subjectId: string; to: string }>>(
      'GET',
      this.path(`/history?subjectId=${offerId}&limit=500`),
    );
    return rows.find((h) => h.subjectType === 'offer')?.to;
  }

  /**
   * Runs one worksheet row: clock to its time, its steps, then what the venue reports. With the
   * model's expectation for the row, the row is checked three ways.
   */
  async runRow(t: Transaction, model?: RowExpectation): Promise<RowResult> {
    const notes: string[] = [];
    this.stepsByOp.set(t.op, t.steps);
    const expired = await this.moveClock(t.time);
    if (expired.length > 0) notes.push(`clock to ${t.time} expired ${expired.length} hold(s)`);
    const appIssues: string[] = [];
    for (const [i, step] of t.steps.entries()) {
      const run = await this.runStep(t.op, step, notes, this.stepKey(t.op, i));
      const m = model?.outcomes[i];
      if (!m) {
        if (!run.ok) appIssues.push(`${t.op}: step ${i + 1} (${step.type}) did not do what the row says`);
        continue;
      }
      if (run.held !== undefined && m.held && run.held !== m.held.ref)
        appIssues.push(`${t.op}: the app held seats for ${run.held ?? 'nobody'}, the policy for ${m.held.ref ?? 'nobody'}`);
      else if (run.held === undefined && run.ok !== m.ok) appIssues.push(stepMismatch(t.op, i, step, run.ok, m.ok));
    }
    const c = await this.counts();
    const queue = await this.waitingNames();
    const observed = { confirmed: c.confirmed, held: c.held, available: c.available, queue };
    const sums = c.confirmed + c.held + c.available === c.capacity && c.confirmed >= 0 && c.held >= 0 && c.available >= 0;
    if (!sums) appIssues.push(`${t.op}: the app's confirmed + held + available is not the capacity ${c.capacity}`);
    const figures = model ? { ...model.counts, queue: model.queue } : undefined;
    appIssues.push(
      ...differences(t.op, figures ?? t.expect, figures ? 'the policy gives' : 'the worksheet says', observed, 'the app shows'),
    );
    const worksheetIssues = model ? paperProblems(t, model, this.sheet.capacity) : [];
    const passed = appIssues.length === 0 && worksheetIssues.length === 0;
    return {
      op: t.op,
      time: t.time,
      action: t.action,
      passed,
      expected: t.expect,
      model: figures,
      observed,
      worksheetIssues,
      appIssues,
      notes,
    };
  }

  /** The operation's Idempotency-Key: stable for the row (so a retry is recognised), unique to this venue. */
  keyOf(op: string): string {
    return keySafe(`${this.venueId}-${op}`).slice(0, 255);
  }

  /**
   * The Idempotency-Key of a row's step `index`. Each step is a request of its own: a second step
   * sent with the first one's key is another request under a used key, refused (a cancel then a
   * promotion) or answered with the first one's stored answer (two promotions, two joins). The first
   * step keeps the row's own key, so "retry T-01" and the boundary tests still name it by the row.
   */
  stepKey(op: string, index: number): string {
    return this.keyOf(stepOperation(op, index));
  }

  private async runStep(op: string, step: Step, notes: string[], key: string, retrying = false): Promise<StepRun> {
    switch (step.type) {
      case 'review': {
        // A review is a promotion attempt: under strict order it must hold nothing.
        const a = await this.promote(`${key}-review`);
        const got = a.body.offer ? this.refOfEntry(a.body.offer.entryId) : null;
        notes.push(got ? `review promoted ${got}` : `no promotion: ${refusal(a)}`);
        return { ok: true, held: got };
      }
      case 'promote': {
        const a = await this.promote(key);
        const got = a.body.offer ? this.refOfEntry(a.body.offer.entryId) : null;
        notes.push(got ? `held for ${got}, expires ${a.body.offer?.expiresAt}` : `no promotion: ${refusal(a)}`);
        return { ok: got === step.expect, held: got };
      }
      case 'accept': {
        const a = await this.accept(step.ref, key);
        notes.push(
          `${step.ref} accept: ${a.status}${a.status >= 300 ? ` ${(a.body as { error?: { code: string } }).error?.code}` : ''}`,
        );
        // A refusal is a 4xx answer (409: the hold has lapsed), or no offer at all for the group.
        const refused = a.status === 0 || (a.status >= 400 && a.status < 500);
        return { ok: step.expect === 'refused' ? refused : a.status === 200 };
      }
      case 'cancel': {
        const a = await this.cancel(step.ref, key);
        notes.push(`cancel ${step.ref}: ${a.status}${a.replayed ? ' (replayed)' : ''}`);
        return { ok: a.status === 200 };
      }
      case 'expire': {
        const state = await this.offerState(step.ref, key);
        notes.push(`${step.ref}'s offer is ${state ?? 'unknown'}`);
        return { ok: state === 'expired' };
      }
      case 'join': {
        // Keyed like every other step: a retried join row is recognised, not a second request in the queue.
        const a = await this.join(step.ref, step.partySize, key);
        // A group the row expects turned away: the app must refuse it as invalid input, adding nobody.
        if (step.expect === 'refused') {
          const code = (a.body as { error?: { code?: string } } | null)?.error?.code;
          if (a.status !== 400) notes.push(`${step.ref} join: ${a.status}${code ? ` ${code}` : ''}; the row expects a refusal`);
          return { ok: a.status === 400 && code === 'VALIDATION' };
        }
        const got = a.status === 201 ? a.body.entry.queueSequence : undefined;
        // A sequence other than the worksheet's is the row's failure (the policy gives the same one), not a stop mid-run.
        // A retry asks only that the join be recognised: its sequence was checked on the row itself.
        const wrong = got !== undefined && step.sequence !== undefined && got !== step.sequence && !retrying;
        if (wrong) notes.push(`${step.ref} got queue sequence ${got}, the worksheet says ${step.sequence}`);
        return { ok: got !== undefined && !wrong };
      }
      case 'retry': {
        const steps = this.stepsByOp.get(step.op);
        if (!steps) throw new Error(`retry of ${step.op}, which has not run`);
        let ok = true;
        // The same operation again, each step with its own Idempotency-Key of the first time: it must be recognised.
        for (const [i, s] of steps.entries()) ok = (await this.runStep(op, s, notes, this.stepKey(step.op, i), true)).ok && ok;
        return { ok };
      }
    }
  }

  refOfEntry(entryId: string): string {
    return [...this.entries].find(([, id]) => id === entryId)?.[0] ?? entryId;
  }
}

/**
 * A step the app and the policy did differently. For an acceptance the row expects to be refused,
 * "ok" means refused, so the words say what happened rather than whether the row held.
 */
function stepMismatch(op: string, i: number, step: Step, appOk: boolean, policyOk: boolean): string {
  const head = `${op}: step ${i + 1} (${step.type})`;
  if (step.type === 'accept' && step.expect === 'refused') {
    const did = (ok: boolean): string => (ok ? 'refused' : 'accepted');
    return `${head} was ${did(appOk)} in the app; under the policy it is ${did(policyOk)}`;
  }
  return `${head} ${appOk ? 'succeeded' : 'failed'} in the app; under the policy it ${policyOk ? 'succeeds' : 'fails'}`;
}

/** Why a promotion held nobody: the app's reason, or the refusal itself (a promotion answered 4xx has no reason). */
function refusal(a: ApiAnswer<PromotionAnswer>): string {
  const error = (a.body as { error?: { code: string; message: string } } | null)?.error;
  return error ? `${a.status} ${error.code}: ${error.message}` : String(a.body?.reason);
}

interface PromotionAnswer {
  offer: { id: string; entryId: string; expiresAt: string } | null;
  reservation?: { id: string };
  reason?: string;
}

/** Replays the whole worksheet in a fresh sandbox venue. */
export async function runLedger(
  client: LedgerClient,
  sheet: Worksheet,
  slug: string,
): Promise<{ session: LedgerSession; rows: RowResult[] }> {
  const session = new LedgerSession(client, sheet);
  await session.setUp(slug);
  const { expectations } = modelLedger(sheet);
  const rows: RowResult[] = [];
  for (const [i, t] of sheet.transactions.entries()) rows.push(await session.runRow(t, expectations[i]));
  return { session, rows };
}

/**
 * Replays the worksheet up to and including row `upTo` (an index or an operation name; -1 or null:
 * only the starting position), a boundary test's starting point.
 */
export async function runUntil(
  client: LedgerClient,
  sheet: Worksheet,
  slug: string,
  upTo: number | string | null,
): Promise<LedgerSession> {
  const last = typeof upTo === 'string' ? sheet.transactions.findIndex((t) => t.op === upTo) : (upTo ?? -1);
  if (typeof upTo === 'string' && last < 0) throw new Error(`no row ${upTo} in the worksheet`);
  const session = new LedgerSession(client, sheet);
  await session.setUp(slug);
  for (const t of sheet.transactions.slice(0, last + 1)) await session.runRow(t);
  return session;
}
