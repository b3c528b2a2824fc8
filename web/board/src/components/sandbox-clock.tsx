import type { BoardSnapshot } from '../api/types';
import { localTime, plural } from '../format';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';
import { boardWords } from '../words';

/** A sandbox venue's simulated clock, and moving it forward (manager+; it then sweeps). */
export function SandboxClock({ board, afterAct }: { board: BoardSnapshot; afterAct: () => Promise<void> }) {
  // A seat pool (a workshop) holds seats for a group: what runs out there is a hold, not an offer.
  const { hold } = boardWords(board.venue.seating);
  const move = async (minutes: number): Promise<void> => {
    const to = new Date(Date.parse(board.now) + minutes * 60_000).toISOString();
    const r = await api.post<{ now: string; expired: string[] }>(`/v1/venues/${board.venue.id}/clock`, { now: to });
    const expired = r.expired.length;
    const lapsed = plural(expired, hold);
    say('info', `Practice clock now ${localTime(r.now, board.venue.timeZone)}${expired ? `; ${lapsed} ran out` : ''}.`);
    await afterAct();
  };
  return (
    <section class="panel sandbox-clock" aria-label="Practice clock" data-testid="sandbox-clock">
      <h2>
        Practice clock{' '}
        <span class="clock-now" data-testid="clock-now">
          {localTime(board.now, board.venue.timeZone)}
        </span>
      </h2>
      <p class="muted">This practice venue's clock stands still until you move it; {hold}s whose time is up then run out.</p>
      <div class="clock-acts">
        <ActButton testId="clock-1" onAct={() => move(1)}>
          +1 min
        </ActButton>
        <ActButton testId="clock-5" onAct={() => move(5)}>
          +5 min
        </ActButton>
        <ActButton testId="clock-15" onAct={() => move(15)}>
          +15 min
        </ActButton>
      </div>
    </section>
  );
}
