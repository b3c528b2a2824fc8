import './reports.css';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import { calendarDate, plural } from '../format';
import type { Venue } from '../api/types';
import { readWallClock } from '../state/clock';
import { api, session } from '../state/session';
import { venueNowAt } from '../state/venue-data';
import type { TabProps } from '../views/registry';
import { DaySummary } from './day-summary';
import { ErrorHistogram, QuoteScatter } from './quote-charts';
import { MODEL_EXPLAINED, MODEL_NAMES, type DayReport, type ModelStats, type QuoteModel, type QuoteReport } from './report-types';

type ReportVenue = Venue & { policy: Venue['policy'] & { quoteModel?: QuoteModel } };

const MODELS: QuoteModel[] = ['turns', 'floor'];
const DEFAULT_DAYS = 28;

/** The venue-local date of an instant (YYYY-MM-DD). */
function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * The calendar date `days` days before `ymd` (both YYYY-MM-DD), counted in calendar days: 24-hour
 * steps back from an instant landed on the wrong date when a clock change lay between.
 */
function daysBefore(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

const figure = (x: number | null, unit: string, sign = false): string =>
  x === null ? '–' : `${sign && x > 0 ? '+' : ''}${x.toFixed(1)}${unit}`;

/**
 * Managers, table venues (the Reports tab): the day by day figures (who joined, was seated, or left
 * and how) above, then how accurate each quote model was over a range of
 * business dates, side by side, with a quoted-versus-actual scatter and an error histogram each, and
 * the switch between them. The venue shell draws the top bar.
 */
export function ReportsView({ venueId, data }: TabProps) {
  // The shell's venue (the tab waits for it, being for table venues only): the view read the same
  // venue again itself as it opened, two reads of one venue each time.
  const venue: ReportVenue | null = data.venue.value;
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [report, setReport] = useState<QuoteReport | null>(null);
  const [days, setDays] = useState<DayReport | null>(null);
  const [error, setError] = useState<{ text: string; forbidden: boolean } | null>(null);
  const [saving, setSaving] = useState(false);

  const fail = (err: unknown): void =>
    setError({ text: messageOf(err), forbidden: err instanceof ApiError && err.status === 403 });

  useEffect(() => {
    if (!venue || range) return;
    // The venue's date by its read's `now` (a sandbox's clock, else the server's) and the time passed
    // since that read: the tablet's own clock, a day off, ended the range on the wrong date.
    const to = localDate(new Date(venueNowAt(venue, data.venueReadAt, readWallClock())), venue.timeZone);
    setRange({ from: daysBefore(to, DEFAULT_DAYS - 1), to });
  }, [venue, range]);

  useEffect(() => {
    if (!range) return;
    setError(null);
    // The report on screen is the range's or none: a refused range left the last report under it.
    setReport(null);
    setDays(null);
    if (range.from === '' || range.to === '' || range.from > range.to) {
      setError({ text: 'Choose a From date on or before the To date.', forbidden: false });
      return;
    }
    // A reply for a range since changed is dropped (two quick date changes could end on the first's).
    let live = true;
    api.get<QuoteReport>(`/v1/venues/${venueId}/reports/quotes?from=${range.from}&to=${range.to}`).then(
      (r) => live && setReport(r),
      (err: unknown) => live && fail(err),
    );
    api.get<DayReport>(`/v1/venues/${venueId}/reports/days?from=${range.from}&to=${range.to}`).then(
      (r) => live && setDays(r),
      (err: unknown) => live && fail(err),
    );
    return () => {
      live = false;
    };
  }, [venueId, range]);

  const choose = async (model: QuoteModel): Promise<void> => {
    setSaving(true);
    try {
      await api.request<ReportVenue>('PATCH', `/v1/venues/${venueId}`, { body: { policy: { quoteModel: model } } });
      // The shell's copy is this view's venue too (and the other tabs'): the choice shows once it is read.
      await data.reload();
    } catch (err) {
      fail(err);
    } finally {
      setSaving(false);
    }
  };

  /** The quote report's rows (`quotes`) or the day by day figures (`days`), as a file. */
  const downloadCsv = async (kind: 'quotes' | 'days' = 'quotes'): Promise<void> => {
    if (!range) return;
    try {
      const res = await fetch(`/v1/venues/${venueId}/reports/${kind}.csv?from=${range.from}&to=${range.to}`, {
        headers: { Authorization: `Bearer ${session.value?.token ?? ''}` },
      });
      if (!res.ok) throw new Error(`The server answered ${res.status}.`);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `${kind}-${range.from}-${range.to}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      fail(err);
    }
  };

  const current = venue?.policy.quoteModel ?? report?.quoteModel ?? 'turns';
  return (
    <main class="reports" data-testid="reports">
      {error && (
        <div class="error-box" role="alert" data-testid="reports-error">
          <p>{error.text}</p>
          {error.forbidden && <p>Only a manager or the owner of this venue can read the reports.</p>}
        </div>
      )}
      {range && (
        <form class="report-range" onSubmit={(e) => e.preventDefault()}>
          <label>
            From <input type="date" value={range.from} onChange={(e) => setRange({ ...range, from: e.currentTarget.value })} />
          </label>
          <label>
            To <input type="date" value={range.to} onChange={(e) => setRange({ ...range, to: e.currentTarget.value })} />
          </label>
          <button
            type="button"
            class="btn btn-secondary"
            // Off for a range with no quoted party, as the days' button is: the file held only its header.
            disabled={range.from === '' || range.to === '' || range.from > range.to || report?.entries.length === 0}
            onClick={() => void downloadCsv()}
            data-testid="csv"
          >
            Download quotes (CSV)
          </button>
        </form>
      )}
      {days && <DaySummary report={days} onDownload={() => void downloadCsv('days')} />}
      {report === null && !error && <p class="muted">Loading the report…</p>}
      {report && (
        <>
          <h2 class="report-heading">Wait quotes</h2>
          <p data-testid="report-summary">{quoteSummary(report)}</p>
          <div class="model-switch" role="radiogroup" aria-label="Quote told to parties">
            <span>Quote told to parties:</span>
            {MODELS.map((m) => (
              <button
                key={m}
                type="button"
                role="radio"
                aria-checked={current === m}
                class={`btn ${current === m ? 'btn-primary' : 'btn-secondary'}`}
                disabled={saving}
                data-testid={`choose-${m}`}
                onClick={() => void choose(m)}
              >
                {/* The card's own words: "MAE" is a statistician's, not a manager's. */}
                {MODEL_NAMES[m]} · mean error {figure(report.models[m].maeMinutes, ' min')}
              </button>
            ))}
          </div>
          <div class="model-columns">
            {MODELS.map((m) => (
              <ModelColumn key={m} model={m} stats={report.models[m]} told={current === m} report={report} />
            ))}
          </div>
          <Breakdown report={report} />
        </>
      )}
    </main>
  );
}

/**
 * The quote report's line: one date reads "on Nov 20, 2026" (it read "between Nov 20, 2026 and Nov 20,
 * 2026"), and a range nobody was quoted in says so, not "0 parties offered …; 0 quoted but never offered".
 */
function quoteSummary(report: QuoteReport): string {
  const span =
    report.from === report.to
      ? `on ${calendarDate(report.from)}`
      : `between ${calendarDate(report.from)} and ${calendarDate(report.to)}`;
  const offered = report.entries.length;
  if (offered === 0 && report.notOffered === 0) return `No party was offered a table ${span}.`;
  return `${offered === 0 ? 'No party was' : plural(offered, 'party', 'parties')} offered a table ${span}; ${
    report.notOffered
  } quoted but never offered (not measured).${offered > 0 ? ' Actual wait: from joining to the first offer.' : ''}`;
}

function ModelColumn({
  model,
  stats,
  told,
  report,
}: {
  model: QuoteModel;
  stats: ModelStats;
  told: boolean;
  report: QuoteReport;
}) {
  return (
    <section class={`model-card${told ? ' told' : ''}`} data-testid={`model-${model}`}>
      <h2>
        {MODEL_NAMES[model]} {told && <span class="badge">told to parties</span>}
      </h2>
      <p class="muted">{MODEL_EXPLAINED[model]}</p>
      <dl class="figures">
        <div>
          <dt>Mean error</dt>
          <dd data-testid={`mae-${model}`}>{figure(stats.maeMinutes, ' min')}</dd>
        </div>
        <div>
          <dt>Bias</dt>
          <dd>{figure(stats.biasMinutes, ' min', true)}</dd>
        </div>
        <div>
          <dt>Within 5 min</dt>
          <dd>{figure(stats.within5, ' %')}</dd>
        </div>
        <div>
          <dt>Within 10 min</dt>
          <dd>{figure(stats.within10, ' %')}</dd>
        </div>
      </dl>
      {stats.count > 0 ? (
        <>
          <QuoteScatter entries={report.entries} model={model} />
          <ErrorHistogram entries={report.entries} model={model} />
        </>
      ) : (
        <p class="empty">No offered party to measure yet.</p>
      )}
    </section>
  );
}

function Breakdown({ report }: { report: QuoteReport }) {
  const rows = [
    ...report.byDaypart.map((d) => ({ label: d.daypart, count: d.count, models: d.models })),
    ...report.byPartySize.map((p) => ({ label: `party of ${p.partySize}`, count: p.count, models: p.models })),
  ];
  if (rows.length === 0) return null;
  return (
    <div class="breakdown-frame">
      <table class="breakdown" data-testid="breakdown">
        <thead>
          <tr>
            <th />
            <th>parties</th>
            {MODELS.map((m) => (
              <th key={m}>{MODEL_NAMES[m]}: mean error, bias (min)</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th>{r.label}</th>
              <td>{r.count}</td>
              {MODELS.map((m) => (
                <td key={m}>
                  {/* Minutes, as the column says: a phone's table fits the screen without a unit in every cell. */}
                  <span class="figure">{figure(r.models[m].maeMinutes, '')},</span>{' '}
                  <span class="figure">{figure(r.models[m].biasMinutes, '', true)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
