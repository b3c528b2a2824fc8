import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  DomainException,
  ErrorCode,
  HistoryWriter,
  sqlState,
  SQLSTATE,
  SweepFirst,
  TransactionRunner,
  type HistoryView,
  cursor,
  toPage,
  type Page,
} from '@hostboard/core';
import { MembershipService } from '@hostboard/auth';
import type { CreateVenueDto } from '../http/create-venue.dto.js';
import type { UpdateVenueDto } from '../http/update-venue.dto.js';
import { countryOfZone } from './venue-country.js';
import { nextServiceChangeAt, runningWindowAt } from '../service-windows/running-window.js';
import { ServiceWindowRepository } from '../service-windows/service-window.repository.js';
import { VenueClock } from './venue-clock.js';
import { presetPolicy } from './venue-presets.js';
import type { Venue, VenueDecisions } from './venue.entity.js';
import { VenueRepository } from './venue.repository.js';
import { toVenueView, type VenueView } from './venue.view.js';

/** The one venue's read: the venue, with its clock and its service now. */
export type VenueReadView = VenueView & {
  now: string;
  serviceRunning: boolean;
  serviceChangesAt: string | null;
  /** A seat pool's policy once anyone has joined or registered: a PATCH of it is refused (RULE_VIOLATION). */
  policyFixed: boolean;
};

@Injectable()
export class VenueService {
  constructor(
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly memberships: MembershipService,
    private readonly history: HistoryWriter,
    private readonly sweepFirst: SweepFirst,
    private readonly venueClock: VenueClock,
    private readonly serviceWindows: ServiceWindowRepository,
  ) {}

  /** Any signed-in staff user may create a venue; the creator becomes its owner, in the same transaction. */
  async create(creatorId: string, input: CreateVenueDto): Promise<VenueView> {
    if (input.preset === 'restaurant' && input.poolCapacity !== undefined) {
      throw DomainException.validation('poolCapacity applies to pool venues (the workshop preset) only.');
    }
    if (!input.sandbox && input.clock !== undefined) {
      throw DomainException.validation('clock applies to sandbox venues only.');
    }
    const now = this.clock.now();
    const policy = presetPolicy(input.preset, input.poolCapacity);
    const venue: Venue = {
      id: randomUUID(),
      slug: input.slug,
      name: input.name,
      timeZone: input.timeZone,
      country: input.country ?? countryOfZone(input.timeZone),
      preset: input.preset,
      published: false,
      queueEnabled: true,
      queuePartyCap: 8,
      termsVersion: 'v1',
      seating: policy.seating,
      poolCapacity: policy.poolCapacity,
      holdSeconds: policy.holdSeconds,
      onOfferExpired: policy.onOfferExpired,
      requireServiceWindow: policy.requireServiceWindow,
      oneEntryPerContact: policy.oneEntryPerContact,
      queueOrder: policy.order,
      quoteModel: policy.quoteModel,
      sandbox: input.sandbox === true,
      clockNow: input.sandbox ? (input.clock ? new Date(input.clock) : now) : null,
      version: '0',
      poolConfirmed: 0,
      poolHeld: 0,
      queueSequenceLast: '0',
      createdAt: now,
      decisions: input.decisions ? givenOnly(input.decisions) : null,
    };
    return this.tx.command({ translate: slugTaken }, async ({ manager }) => {
      await this.venues.insert(manager, venue);
      await this.memberships.grantOwner(manager, venue.id, creatorId);
      await this.history.append(manager, {
        venueId: venue.id,
        subjectType: 'venue',
        subjectId: venue.id,
        from: null,
        to: 'created',
        at: now,
        operationId: `venue-create-${venue.id}`,
      });
      return toVenueView(venue);
    });
  }

  /**
   * With `now`, the venue's clock at the read (a sandbox's simulated clock, else the server's, which
   * follows the database's): the board judges dates by it, never by the device's own clock, which on
   * a tablet may be hours off. With `serviceRunning` (a service window runs at `now`, by the rule
   * joins are refused by) and `serviceChangesAt` (the next instant that changes, null when none does
   * within a week): the board says whether joins would be refused now from these, not from a copy of
   * the rule of its own.
   */
  async get(venueId: string): Promise<VenueReadView> {
    const { venue, windows, opened } = await this.tx.run(async ({ manager }) => {
      const found = await this.venues.findById(manager, venueId);
      return {
        venue: found,
        windows: await this.serviceWindows.list(manager, venueId),
        // Only a seat pool fixes its policy when registration opens (update() below).
        opened: found?.seating === 'pool' && (await this.venues.registrationOpened(manager, venueId)),
      };
    });
    if (!venue) throw DomainException.notFound('The venue was not found.');
    const now = this.venueClock.now(venue);
    return {
      ...toVenueView(venue),
      now: now.toISOString(),
      serviceRunning: runningWindowAt(windows, venue.timeZone, now) !== null,
      serviceChangesAt: nextServiceChangeAt(windows, venue.timeZone, now)?.toISOString() ?? null,
      policyFixed: opened === true,
    };
  }

  /** Each with the user's role there, so a board knows which tabs to show without reading the members. */
  async listForUser(userId: string): Promise<Array<VenueView & { role: string }>> {
    const venues = await this.tx.run(({ manager }) => this.venues.listForUser(manager, userId));
    return venues.map((v) => Object.assign(toVenueView(v), { role: v.role }));
  }

  async update(venueId: string, input: UpdateVenueDto): Promise<VenueView> {
    return this.tx.venueCommand(venueId, async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      const p = input.policy ?? {};
      if (p.poolCapacity !== undefined && venue.seating !== 'pool') {
        throw DomainException.validation('poolCapacity applies to pool venues only.');
      }
      // A seat pool takes any group up to its seats (the workshop guide); a cap stored there would
      // be kept for nothing it applies, so it is refused as poolCapacity is at a table venue.
      if (input.queuePartyCap !== undefined && venue.seating === 'pool') {
        const message =
          'queuePartyCap applies to table venues only: a seat pool takes any group of 1 up to its number of seats (policy.poolCapacity).';
        throw DomainException.validation(message, { field: 'queuePartyCap', fields: [{ field: 'queuePartyCap', message }] });
      }
      // A pool's policy is chosen and communicated before registration: once anyone has registered
      // or joined, changing it would change the rules under people already counted.
      if (venue.seating === 'pool' && Object.keys(p).length > 0 && (await this.venues.registrationOpened(manager, venueId))) {
        throw new DomainException(ErrorCode.RULE_VIOLATION, 'The policy is fixed once registration has opened.');
      }
      const changes: Partial<Venue> = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.country !== undefined && { country: input.country }),
        ...(input.published !== undefined && { published: input.published }),
        ...(input.queueEnabled !== undefined && { queueEnabled: input.queueEnabled }),
        ...(input.queuePartyCap !== undefined && { queuePartyCap: input.queuePartyCap }),
        ...(input.termsVersion !== undefined && { termsVersion: input.termsVersion }),
        ...(p.holdSeconds !== undefined && { holdSeconds: p.holdSeconds }),
        ...(p.onOfferExpired !== undefined && { onOfferExpired: p.onOfferExpired }),
        ...(p.requireServiceWindow !== undefined && { requireServiceWindow: p.requireServiceWindow }),
        ...(p.oneEntryPerContact !== undefined && { oneEntryPerContact: p.oneEntryPerContact }),
        ...(p.order !== undefined && { queueOrder: p.order }),
        ...(p.quoteModel !== undefined && { quoteModel: p.quoteModel }),
        ...(p.poolCapacity !== undefined && { poolCapacity: p.poolCapacity }),
        ...(input.decisions !== undefined && { decisions: { ...venue.decisions, ...givenOnly(input.decisions) } }),
      };
      await this.venues.update(manager, venueId, changes);
      return toVenueView({ ...venue, ...changes });
    });
  }

  /** Newest first, a page at a time (`before`: the cursor of the previous page's Link header). */
  async listHistory(venueId: string, query: { subjectId?: string; limit: number; before?: string }): Promise<Page<HistoryView>> {
    const beforeId = cursor.decode(query.before);
    // History ids are bigint: 18 digits always fit, where 19 could pass 2^63 - 1 and answer 500.
    if (beforeId !== null && !/^\d{1,18}$/.test(beforeId))
      throw DomainException.validation('before must be a cursor from a Link header', { field: 'before' });
    // A hold that lapsed with no job to end it yet is recorded as ended before the history is read,
    // so the history says what the board says (SweepFirst).
    await this.sweepFirst.of(venueId);
    const rows = await this.tx.run(({ manager }) =>
      this.history.page(manager, venueId, { subjectId: query.subjectId, limit: query.limit + 1, beforeId }),
    );
    const page = toPage(rows, query.limit, (r) => cursor.encode(r.id));
    return { items: page.items.map(({ id: _id, ...view }) => view), next: page.next };
  }
}

/** The keys a request gave (a DTO instance carries the others as undefined, which must not erase stored text). */
function givenOnly(d: VenueDecisions): VenueDecisions {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
}

function slugTaken(err: unknown): DomainException | undefined {
  return sqlState(err) === SQLSTATE.uniqueViolation
    ? new DomainException(ErrorCode.CONFLICT, 'This slug is already taken.', { field: 'slug' })
    : undefined;
}
