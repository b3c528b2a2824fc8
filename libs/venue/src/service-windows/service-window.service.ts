import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { VenueClock } from '../venues/venue-clock.js';
import { VenueRepository } from '../venues/venue.repository.js';
import { clockChangeNotes, hhmm, minuteOfDay, windowsOverlap } from './running-window.js';
import type { ServiceWindow } from './service-window.entity.js';
import { ServiceWindowRepository } from './service-window.repository.js';
import { toServiceWindowView, type ServiceWindowListing, type ServiceWindowView } from './service-window.view.js';

export interface NewServiceWindow {
  days: number[];
  start: string;
  end: string;
  turnMinutes: number;
  depositRequired?: boolean;
}

const DAY_NAMES = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Service windows: managers add them; joins and quotes read the running one. */
@Injectable()
export class ServiceWindowService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly windows: ServiceWindowRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  /**
   * Windows of one venue may not overlap: at any moment at most one runs, so "the running window"
   * (its turn length, its business date) is never a choice.
   */
  async create(venueId: string, input: NewServiceWindow): Promise<ServiceWindowListing> {
    const days = [...new Set(input.days)].sort((a, b) => a - b);
    if (days.length !== input.days.length)
      throw DomainException.validation('days must name each weekday once.', { field: 'days' });
    const startMinute = minuteOfDay(input.start);
    const endMinute = minuteOfDay(input.end);
    if (startMinute === endMinute) {
      throw DomainException.validation('A service window needs an end that differs from its start.', { field: 'end' });
    }
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const now = this.clock.now(venue);
      const window: ServiceWindow = {
        id: randomUUID(),
        venueId,
        days,
        startMinute,
        endMinute,
        turnMinutes: input.turnMinutes,
        depositRequired: input.depositRequired ?? false,
        createdAt: now,
      };
      const clash = (await this.windows.list(tx.manager, venueId)).find((w) => windowsOverlap(w, window));
      if (clash) {
        throw new DomainException(
          ErrorCode.CONFLICT,
          `This window overlaps the window ${hhmm(clash.startMinute)}–${hhmm(clash.endMinute)} on ${clash.days.map((d) => DAY_NAMES[d]).join(', ')}.`,
          { windowId: clash.id },
        );
      }
      await this.windows.insert(tx.manager, window);
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'service-window',
        subjectId: window.id,
        from: null,
        to: 'created',
        at: now,
        operationId: `service-window-create-${window.id}`,
      });
      const view = toServiceWindowView(window);
      await this.board.append(tx, venueId, 'service-window.created', { ...view }, now);
      // Taken as given, but the manager hears what the hours do on a night the clocks skip or repeat
      // their start or end (opens after the gap, closes the second time round, or does not run).
      return { ...view, clockChanges: clockChangeNotes(window, venue.timeZone, now) };
    });
  }

  /**
   * Removes a window (hours set by mistake: a typo is fixed by removing the window and adding the right
   * one). Entries already joined keep their business date; joins at those hours are refused from now on.
   */
  async remove(venueId: string, windowId: string): Promise<ServiceWindowView> {
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const now = this.clock.now(venue);
      const removed = await this.windows.remove(tx.manager, venueId, windowId);
      if (!removed) throw DomainException.notFound('The service window was not found.');
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'service-window',
        subjectId: removed.id,
        from: 'created',
        to: 'removed',
        at: now,
        operationId: `service-window-remove-${removed.id}`,
      });
      const view = toServiceWindowView(removed);
      await this.board.append(tx, venueId, 'service-window.removed', { ...view }, now);
      return view;
    });
  }

  async list(venueId: string): Promise<ServiceWindowListing[]> {
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      const windows = await this.windows.list(manager, venueId);
      const now = this.clock.now(venue);
      return windows.map((w) => ({ ...toServiceWindowView(w), clockChanges: clockChangeNotes(w, venue.timeZone, now) }));
    });
  }
}
