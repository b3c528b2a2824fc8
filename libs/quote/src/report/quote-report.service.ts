import { Injectable } from '@nestjs/common';
import { checkReportRange, checkReportVenue } from './report-range.js';
import { DateTime } from 'luxon';
import { DomainException, TransactionRunner } from '@hostboard/core';
import { VenueRepository, type QuoteModel } from '@hostboard/venue';
import { DAYPARTS, daypartOf, type Daypart } from '../floor/daypart.js';
import { modelStats, type ModelStats } from './quote-stats.js';
import { QuoteReportRepository } from './quote-report.repository.js';

/** One offered entry: what each model quoted and what happened. */
export interface QuoteReportEntry {
  entryId: string;
  name: string;
  partySize: number;
  businessDate: string;
  daypart: Daypart;
  receivedAt: string;
  offeredAt: string;
  /** The same two instants on the venue's own clock ("2026-06-12 18:00:00"), as a manager reads them in a spreadsheet. */
  receivedLocal: string;
  offeredLocal: string;
  /** Minutes from join to the first offer, one decimal. */
  actualMinutes: number;
  turnsMinutes: number | null;
  floorMinutes: number | null;
  /** The model the party was told. */
  shownModel: QuoteModel;
}

type Models = Record<QuoteModel, ModelStats>;

export interface QuoteReport {
  from: string;
  to: string;
  /** The venue's current choice. */
  quoteModel: QuoteModel;
  entries: QuoteReportEntry[];
  /** Quoted entries never offered a table (left, cancelled, still waiting): not measured, counted apart. */
  notOffered: number;
  models: Models;
  byDaypart: Array<{ daypart: Daypart; count: number; models: Models }>;
  byPartySize: Array<{ partySize: number; count: number; models: Models }>;
}

/** A spreadsheet reads "yyyy-MM-dd HH:mm:ss" as a date and time; an ISO instant in UTC it keeps as text. */
const venueWallClock = (at: Date, zone: string): string => DateTime.fromJSDate(at, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');

const oneDecimal = (x: number): number => Math.round(x * 10) / 10;

function statsOf(rows: QuoteReportEntry[]): Models {
  return {
    turns: modelStats(rows.map((r) => ({ quoted: r.turnsMinutes, actual: r.actualMinutes }))),
    floor: modelStats(rows.map((r) => ({ quoted: r.floorMinutes, actual: r.actualMinutes }))),
  };
}

/**
 * How accurate each model's quotes were over a range of business dates. The actual wait of an entry
 * is the minutes from its join (received time) to its first offer; errors use the unrounded actual.
 */
@Injectable()
export class QuoteReportService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly rows: QuoteReportRepository,
  ) {}

  async report(venueId: string, from: string, to: string): Promise<QuoteReport> {
    checkReportRange(from, to);
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      checkReportVenue(venue);
      const quoted = await this.rows.quotedEntries(manager, venueId, from, to);
      const entries: QuoteReportEntry[] = [];
      for (const r of quoted) {
        if (!r.firstOfferAt) continue;
        entries.push({
          entryId: r.entryId,
          name: r.name,
          partySize: r.partySize,
          businessDate: r.businessDate,
          daypart: daypartOf(r.receivedAt, venue.timeZone),
          receivedAt: r.receivedAt.toISOString(),
          offeredAt: r.firstOfferAt.toISOString(),
          receivedLocal: venueWallClock(r.receivedAt, venue.timeZone),
          offeredLocal: venueWallClock(r.firstOfferAt, venue.timeZone),
          actualMinutes: (r.firstOfferAt.getTime() - r.receivedAt.getTime()) / 60_000,
          turnsMinutes: r.turnsMinutes,
          floorMinutes: r.floorMinutes,
          shownModel: r.model,
        });
      }
      const byDaypart = DAYPARTS.map((daypart) => entries.filter((e) => e.daypart === daypart))
        .filter((group) => group.length > 0)
        .map((group) => ({ daypart: group[0].daypart, count: group.length, models: statsOf(group) }));
      const sizes = [...new Set(entries.map((e) => e.partySize))].sort((a, b) => a - b);
      const byPartySize = sizes.map((partySize) => {
        const group = entries.filter((e) => e.partySize === partySize);
        return { partySize, count: group.length, models: statsOf(group) };
      });
      const models = statsOf(entries);
      return {
        from,
        to,
        quoteModel: venue.quoteModel,
        entries: entries.map((e) => ({ ...e, actualMinutes: oneDecimal(e.actualMinutes) })),
        notOffered: quoted.length - entries.length,
        models,
        byDaypart,
        byPartySize,
      };
    });
  }
}
