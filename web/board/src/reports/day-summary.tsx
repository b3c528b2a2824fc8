import { plural } from '../format';
import type { DayFigures, DayReport } from './report-types';

/** "Fri, Oct 16": a manager finds last Friday by its weekday. The date is a business date, read as written. */
function dayName(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  if (!y || !m || !d) return ymd;
  return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

const minutes = (x: number | null): string => (x === null ? '–' : `${Math.round(x)}\u00a0min`);

/** How many were not seated, then only the endings that happened, one per line, in the order an evening reads. */
function notSeatedLines(f: DayFigures): string[] {
  const o = f.outcomes;
  return [
    plural(f.joined - o.seated, 'party', 'parties'),
    o.noShow > 0 && plural(o.noShow, 'no-show'),
    o.left > 0 && `${o.left} left by themselves`,
    o.removed > 0 && `${o.removed} removed by the host`,
    o.offerEnded > 0 && `${o.offerEnded} out when an offer ran out or was withdrawn`,
    o.dayClosed > 0 && `${o.dayClosed} still waiting at close`,
    o.stillWaiting > 0 && `${o.stillWaiting} still in the queue now`,
    o.toSeat > 0 && `${o.toSeat} to be seated now`,
  ].filter((line): line is string => typeof line === 'string');
}

function offerLines(f: DayFigures): string[] {
  const o = f.offers;
  return [
    plural(o.made, 'offer'),
    o.accepted > 0 && `${o.accepted} accepted`,
    o.expired > 0 && `${o.expired} ran out`,
    o.withdrawn > 0 && `${o.withdrawn} withdrawn`,
    o.cancelled > 0 && `${o.cancelled} given up`,
  ].filter((line): line is string => typeof line === 'string');
}

/**
 * Half the seated parties waited up to the median; "9 in 10" is said of ten or more. Under ten, the
 * interpolated 90th percentile is no count of parties (seated after 20 and 55 minutes, it read "9 in
 * 10 within 52 min" of two, one of whom waited 55): the longest wait is said instead.
 */
function waitLines(w: DayFigures['waitToSeat']): string[] {
  const half = `half within ${minutes(w.medianMinutes)}`;
  if (w.count >= 10 || w.longestMinutes === undefined) return [half, `9 in 10 within ${minutes(w.p90Minutes)}`];
  // One party seated: its wait, not a half and a longest of one.
  if (w.count === 1) return [`waited ${minutes(w.longestMinutes)}`];
  return [half, `longest ${minutes(w.longestMinutes)}`];
}

/** Each figure on a line of its own: a phone's narrow column wraps between figures, never inside one. */
const Lines = ({ lines }: { lines: string[] }) => (
  <>
    {lines.map((l) => (
      <span key={l} class="line">
        {l}
      </span>
    ))}
  </>
);

function Row({ label, f, total }: { label: string; f: DayFigures; total?: boolean }) {
  const notSeated = notSeatedLines(f);
  // `data-label`: a phone shows each day as a card, every figure under its column's name.
  return (
    <tr class={total ? 'total' : undefined} data-testid={total ? 'days-total' : 'day-row'}>
      <th scope="row">{label}</th>
      <td data-testid="day-joined" data-label="Joined">
        <Lines lines={[plural(f.joined, 'party', 'parties'), plural(f.people, 'person', 'people')]} />
      </td>
      <td data-testid="day-seated" data-label="Seated">
        <Lines lines={[plural(f.outcomes.seated, 'party', 'parties'), plural(f.peopleSeated, 'person', 'people')]} />
      </td>
      <td data-testid="day-not-seated" data-label="Not seated">
        <Lines lines={notSeated} />
      </td>
      <td data-testid="day-wait" data-label="Wait to be seated">
        {f.waitToSeat.count > 0 ? <Lines lines={waitLines(f.waitToSeat)} /> : <span class="line">–</span>}
      </td>
      <td data-testid="day-offers" data-label="Table offers">
        <Lines lines={offerLines(f)} />
      </td>
    </tr>
  );
}

/**
 * "Day by day": the night's figures a manager reads the next morning, one row per business date
 * (a party joining after midnight counts on the evening its service started). Each party is counted
 * once by how it ended, so a row's seated and not-seated parties add up to those who joined.
 */
export function DaySummary({ report, onDownload }: { report: DayReport; onDownload: () => void }) {
  return (
    <section class="day-summary" data-testid="day-summary">
      <div class="day-summary-head">
        <h2>Day by day</h2>
        <button
          type="button"
          class="btn btn-secondary"
          onClick={onDownload}
          data-testid="days-csv"
          disabled={report.days.length === 0}
        >
          Download days (CSV)
        </button>
      </div>
      {report.days.length === 0 ? (
        <p class="empty" data-testid="days-empty">
          No party joined on these dates.
        </p>
      ) : (
        <>
          <p class="muted">Each party is counted once, by how its visit ended. Waits are from joining to being seated.</p>
          <div class="days-frame">
            <table class="days" data-testid="days">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Seated</th>
                  <th scope="col">Not seated</th>
                  <th scope="col">Wait to be seated</th>
                  <th scope="col">Table offers</th>
                </tr>
              </thead>
              <tbody>
                {report.days.map((d) => (
                  <Row key={d.businessDate} label={dayName(d.businessDate)} f={d} />
                ))}
                {report.days.length > 1 && <Row label="All days" f={report.totals} total />}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
