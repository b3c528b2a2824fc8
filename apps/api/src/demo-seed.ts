import { Injectable, Logger } from '@nestjs/common';
import { BookingService } from '@hostboard/booking';
import { SandboxClockService } from '@hostboard/offer';
import { JoinService } from '@hostboard/queue';
import { ServiceWindowService, TablesService, VenueService } from '@hostboard/venue';
import { DateTime } from 'luxon';

const CHICAGO = 'America/Chicago';
const at = (hhmm: string): Date => DateTime.fromISO(`2026-10-09T${hhmm}:00`, { zone: CHICAGO }).toJSDate();

/**
 * The first-start demo on an empty embedded database: the Maple Room workshop sandbox at 09:00 of
 * the worksheet (A, B and C registered; W-01, W-02 and W-03 waiting), and a small restaurant with
 * tables and a service window that is always running. Built through the same services as the API.
 */
@Injectable()
export class DemoSeed {
  private readonly logger = new Logger(DemoSeed.name);

  constructor(
    private readonly venues: VenueService,
    private readonly bookings: BookingService,
    private readonly joins: JoinService,
    private readonly clock: SandboxClockService,
    private readonly tables: TablesService,
    private readonly windows: ServiceWindowService,
  ) {}

  async seed(ownerId: string): Promise<void> {
    const maple = await this.venues.create(ownerId, {
      slug: 'maple-room',
      name: 'Maple Room',
      timeZone: CHICAGO,
      preset: 'workshop',
      poolCapacity: 12,
      sandbox: true,
      clock: at('08:00').toISOString(),
    });
    for (const [name, partySize] of [
      ['A', 4],
      ['B', 3],
      ['C', 3],
    ] as const)
      await this.bookings.create(maple.id, { name, partySize });
    for (const [name, partySize, time] of [
      ['W-01', 3, '08:50'],
      ['W-02', 2, '08:51'],
      ['W-03', 1, '08:52'],
    ] as const) {
      await this.clock.advance(maple.id, at(time));
      await this.joins.deskJoin(maple.id, { name, partySize });
    }
    await this.clock.advance(maple.id, at('09:00'));

    const bistro = await this.venues.create(ownerId, {
      slug: 'corner-bistro',
      name: 'Corner Bistro',
      timeZone: CHICAGO,
      preset: 'restaurant',
    });
    await this.windows.create(bistro.id, { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 });
    const ids: string[] = [];
    for (const [label, capacity] of [
      ['T1', 2],
      ['T2', 2],
      ['T3', 4],
      ['T4', 6],
    ] as const)
      ids.push((await this.tables.createTable(bistro.id, { label, capacity })).id);
    await this.tables.createCombination(bistro.id, { tableIds: [ids[0] ?? '', ids[1] ?? ''], capacity: 4 });
    // The largest party the restaurant preset lets join must have somewhere to sit, or the demo's
    // first board opens on "larger parties are refused".
    await this.tables.createCombination(bistro.id, { tableIds: [ids[2] ?? '', ids[3] ?? ''], capacity: 10 });
    await this.venues.update(bistro.id, { published: true });
    this.logger.log('seeded the demo venues Maple Room (workshop sandbox) and Corner Bistro (restaurant)');
  }
}
