import { LedgerClient, localInstant, type ApiAnswer, type Counts } from './ledger.client.js';
import type { Step, Transaction, Worksheet } from './worksheet.js';

export interface RowResult {
  op: string;
  time: string;
  action: string;
  passed: boolean;
  expected: Transaction['expect'];
  observed: { confirmed: number; held: number; available: number; queue: string[] };
  notes: string[];
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
  private readonly stepsByOp = new Map<string, Step[]>();
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
    const venue = await this.client.must<{ id: string }>('POST', '/v1/venues', {
      slug,
      name: s.name,
      timeZone: s.timeZone,
      preset: 'workshop',
      poolCapacity: s.capacity,
      sandbox: true,
      clock: this.at(s.start),
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
      await this.join(w.ref, w.partySize, w.sequence);
    }
  }

  path(p: string): string {
    return `/v1/venues/${this.venueId}${p}`;
  }

  async moveClock(time: string): Promise<string[]> {
    const a = await this.client.must<{ expired: string[] }>('POST', this.path('/clock'), { now: this.at(time) });
    return a.expired;
  }

  async join(
    ref: string,
    partySize: number,
    sequence?: number,
  ): Promise<ApiAnswer<{ entry: { id: string; queueSequence: number } }>> {
    const a = await this.client.call<{ entry: { id: string; queueSequence: number } }>('POST', this.path('/queue'), {
      name: ref,
      partySize,
    });
    if (a.status === 201) {
      this.entries.set(ref, a.body.entry.id);
      if (sequence !== undefined && a.body.entry.queueSequence !== sequence) {
        throw new Error(`${ref} got queue sequence ${a.body.entry.queueSequence}, the worksheet says ${sequence}`);
      }
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

  async promote(
    key?: string,
  ): Promise<ApiAnswer<{ offer: { id: string; entryId: string; expiresAt: string } | null; reason?: string }>> {
    const a = await this.client.call<{ offer: { id: string; entryId: string; expiresAt: string } | null; reason?: string }>(
      'POST',
      this.path('/promotions'),
      {},
      key,
    );
    const offer = a.body?.offer;
    if (offer) {
      const ref = [...this.entries].find(([, id]) => id === offer.entryId)?.[0];
      if (ref) this.offers.set(ref, offer.id);
    }
    return a;
  }

  async accept(ref: string, key?: string): Promise<ApiAnswer> {
    const offerId = this.offers.get(ref);
    // Under another policy the party may never have been offered: that is a failed row, not a crash.
    if (!offerId)
      return { status: 0, body: { error: { code: 'NO_OFFER', message: `${ref} has no offer to accept` } }, replayed: false };
    return this.client.call('POST', this.path(`/offers/${offerId}/accept`), {}, key);
  }

  /** Cancels a registration (A, B, C) or a queue entry (W-01) by its worksheet name. */
  async cancel(ref: string, key?: string): Promise<ApiAnswer> {
    const reservationId = this.reservations.get(ref);
    if (reservationId) return this.client.call('POST', this.path(`/reservations/${reservationId}/cancel`), {}, key);
    const entryId = this.entries.get(ref);
    if (entryId) return this.client.call('POST', this.path(`/queue/${entryId}/cancel`), {}, key);
    throw new Error(`unknown reference ${ref}`);
  }

  async offerState(ref: string): Promise<string | undefined> {
    const entryId = this.entries.get(ref);
    const offerId = this.offers.get(ref);
    if (!entryId || !offerId) return undefined;
    // History is newest first and paged: the offer's own rows, the latest first.
    const rows = await this.client.must<Array<{ subjectType: string; subjectId: string; to: string }>>(
      'GET',
      this.path(`/history?subjectId=${offerId}&limit=500`),
    );
    return rows.find((h) => h.subjectType === 'offer')?.to;
  }

  /** Runs one worksheet row: clock to its time, its steps, then what the venue reports. */
  async runRow(t: Transaction): Promise<RowResult> {
    const notes: string[] = [];
    this.stepsByOp.set(t.op, t.steps);
    const expired = await this.moveClock(t.time);
    if (expired.length > 0) notes.push(`clock to ${t.time} expired ${expired.length} hold(s)`);
    let stepsOk = true;
    for (const step of t.steps) stepsOk = (await this.runStep(t.op, step, notes)) && stepsOk;
    const c = await this.counts();
    const queue = await this.waitingNames();
    const observed = { confirmed: c.confirmed, held: c.held, available: c.available, queue };
    const e = t.expect;
    const sums = c.confirmed + c.held + c.available === c.capacity && c.confirmed >= 0 && c.held >= 0 && c.available >= 0;
    if (!sums) notes.push('confirmed + held + available is not the capacity');
    const passed =
      stepsOk &&
      sums &&
      e.confirmed === c.confirmed &&
      e.held === c.held &&
      e.available === c.available &&
      sameList(e.queue, queue);
    return { op: t.op, time: t.time, action: t.action, passed, expected: e, observed, notes };
  }

  /** The operation's Idempotency-Key: stable for the row (so a retry is recognised), unique to this venue. */
  keyOf(op: string): string {
    return `${this.venueId}-${op}`.replace(/[^\x21-\x7e]/g, '_').slice(0, 255);
  }

  private async runStep(op: string, step: Step, notes: string[], key = this.keyOf(op)): Promise<boolean> {
    switch (step.type) {
      case 'review': {
        // A review is a promotion attempt: under strict order it must hold nothing.
        const a = await this.promote(`${key}-review`);
        if (a.body.offer) notes.push(`review promoted ${this.refOfEntry(a.body.offer.entryId)}`);
        else notes.push(`no promotion: ${a.body.reason}`);
        return true;
      }
      case 'promote': {
        const a = await this.promote(key);
        const got = a.body.offer ? this.refOfEntry(a.body.offer.entryId) : null;
        notes.push(got ? `held for ${got}, expires ${a.body.offer?.expiresAt}` : `no promotion: ${a.body.reason}`);
        if (got !== step.expect) notes.push(`expected the hold for ${step.expect ?? 'nobody'}`);
        return got === step.expect;
      }
      case 'accept': {
        const a = await this.accept(step.ref, key);
        notes.push(
          `${step.ref} accept: ${a.status}${a.status >= 300 ? ` ${(a.body as { error?: { code: string } }).error?.code}` : ''}`,
        );
        return a.status === 200;
      }
      case 'cancel': {
        const a = await this.cancel(step.ref, key);
        notes.push(`cancel ${step.ref}: ${a.status}${a.replayed ? ' (replayed)' : ''}`);
        return a.status === 200;
      }
      case 'expire': {
        const state = await this.offerState(step.ref);
        notes.push(`${step.ref}'s offer is ${state ?? 'unknown'}`);
        return state === 'expired';
      }
      case 'join': {
        const a = await this.join(step.ref, step.partySize, step.sequence);
        return a.status === 201;
      }
      case 'retry': {
        const steps = this.stepsByOp.get(step.op);
        if (!steps) throw new Error(`retry of ${step.op}, which has not run`);
        let ok = true;
        // The same operation again, with the same Idempotency-Key: it must be recognised.
        for (const s of steps) ok = (await this.runStep(op, s, notes, this.keyOf(step.op))) && ok;
        return ok;
      }
    }
  }

  refOfEntry(entryId: string): string {
    return [...this.entries].find(([, id]) => id === entryId)?.[0] ?? entryId;
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Replays the whole worksheet in a fresh sandbox venue. */
export async function runLedger(
  client: LedgerClient,
  sheet: Worksheet,
  slug: string,
): Promise<{ session: LedgerSession; rows: RowResult[] }> {
  const session = new LedgerSession(client, sheet);
  await session.setUp(slug);
  const rows: RowResult[] = [];
  for (const t of sheet.transactions) rows.push(await session.runRow(t));
  return { session, rows };
}

/** Replays the worksheet up to and including row `op` (a boundary test's starting point). */
export async function runUntil(client: LedgerClient, sheet: Worksheet, slug: string, op: string | null): Promise<LedgerSession> {
  const session = new LedgerSession(client, sheet);
  await session.setUp(slug);
  if (op === null) return session;
  for (const t of sheet.transactions) {
    await session.runRow(t);
    if (t.op === op) return session;
  }
  throw new Error(`no row ${op} in the worksheet`);
}
