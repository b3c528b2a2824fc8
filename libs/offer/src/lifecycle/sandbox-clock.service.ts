import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { VenueRepository } from '@hostboard/venue';
import { SweepService } from './sweep.service.js';

/**
 * A sandbox venue's simulated clock, moved only forward by a manager, like a payment provider's
 * test clock. Moving it expires what fell due, in the same transaction, so the answer lists them.
 */
@Injectable()
export class SandboxClockService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly sweep: SweepService,
    private readonly board: BoardEventWriter,
  ) {}

  async advance(venueId: string, to: Date): Promise<{ now: string; expired: string[] }> {
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      if (!venue.sandbox || !venue.clockNow) {
        throw new DomainException(ErrorCode.RULE_VIOLATION, 'Only a sandbox venue has a clock to move.');
      }
      if (to.getTime() < venue.clockNow.getTime()) {
        throw DomainException.validation('The sandbox clock only moves forward.', { now: venue.clockNow.toISOString() });
      }
      if (to.getTime() > venue.clockNow.getTime()) {
        await this.venues.update(tx.manager, venueId, { clockNow: to });
        venue.clockNow = to;
        await this.board.append(tx, venueId, 'clock.moved', { now: to.toISOString() }, to);
      }
      const expired = await this.sweep.sweepLocked(tx, venue, to);
      return { now: to.toISOString(), expired };
    });
  }
}
