// The quote report (GET /v1/venues/:venueId/reports/quotes), as the Reports view reads it.

export type QuoteModel = 'turns' | 'floor';

export interface ModelStats {
  count: number;
  maeMinutes: number | null;
  biasMinutes: number | null;
  within5: number | null;
  within10: number | null;
}

export interface ReportEntry {
  entryId: string;
  name: string;
  partySize: number;
  businessDate: string;
  daypart: string;
  receivedAt: string;
  receivedLocal: string;
  offeredLocal: string;
  offeredAt: string;
  actualMinutes: number;
  turnsMinutes: number | null;
  floorMinutes: number | null;
  shownModel: QuoteModel;
}

export interface QuoteReport {
  from: string;
  to: string;
  quoteModel: QuoteModel;
  entries: ReportEntry[];
  notOffered: number;
  models: Record<QuoteModel, ModelStats>;
  byDaypart: Array<{ daypart: string; count: number; models: Record<QuoteModel, ModelStats> }>;
  byPartySize: Array<{ partySize: number; count: number; models: Record<QuoteModel, ModelStats> }>;
}

export const MODEL_NAMES: Record<QuoteModel, string> = {
  turns: 'Formula (turns)',
  floor: 'Floor-aware',
};

export const MODEL_EXPLAINED: Record<QuoteModel, string> = {
  turns: '(parties ahead of the same table kind + 1) × the window’s turn length',
  floor: 'what is free, seated and held now, who waits ahead, and turn lengths learned from your visits',
};

/** What a model quoted for an entry. */
export const quotedBy = (e: ReportEntry, model: QuoteModel): number | null =>
  model === 'turns' ? e.turnsMinutes : e.floorMinutes;

// The day report (GET /v1/venues/:venueId/reports/days): what became of the parties, per business date.

export interface DayFigures {
  joined: number;
  people: number;
  /** Final outcomes, each party once: they add up to `joined`. */
  outcomes: Record<'seated' | 'noShow' | 'left' | 'removed' | 'offerEnded' | 'dayClosed' | 'stillWaiting' | 'toSeat', number>;
  peopleSeated: number;
  offers: Record<'made' | 'accepted' | 'expired' | 'withdrawn' | 'cancelled', number>;
  /** `longestMinutes`: absent from a server before it was added. */
  waitToSeat: { count: number; medianMinutes: number | null; p90Minutes: number | null; longestMinutes?: number | null };
}

export interface DayReport {
  from: string;
  to: string;
  timeZone: string;
  days: Array<{ businessDate: string } & DayFigures>;
  totals: DayFigures;
}
