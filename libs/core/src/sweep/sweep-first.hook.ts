import { Injectable } from '@nestjs/common';

/**
 * A hold lapses at its deadline; the expiry job only makes that visible on time, and may be late
 * or its worker down. A read of a venue's records (its history, its messages, its reports, one
 * party's sheet) must not show a lapsed hold as live where the board, read at the same moment,
 * shows it ended: it sweeps first, in its own committed transaction, as the board's reads do.
 * The sweep belongs to the offer module, which depends on the modules that read (venue, outbox,
 * queue, quote), so it registers itself here, where every module can reach it.
 */
@Injectable()
export class SweepFirst {
  private sweep: ((venueId: string) => Promise<unknown>) | null = null;

  register(sweep: (venueId: string) => Promise<unknown>): void {
    this.sweep = sweep;
  }

  /** Ends the venue's lapsed holds (and closes ended days); a cheap read when nothing is due. */
  async of(venueId: string): Promise<void> {
    await this.sweep?.(venueId);
  }
}
