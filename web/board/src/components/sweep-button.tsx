import { plural } from '../format';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';
import { BarLabel } from './bar-label';

/**
 * The spec's "Sweep expired offers": a host runs the sweep of lapsed holds by hand (each press its own
 * Idempotency-Key, so a retried press is one sweep). An empty sweep is a normal answer, not an error.
 * A seat pool (a workshop) holds seats for a group and offers no table: there the same act releases
 * expired holds, in the words its rows and counts use (held, hold).
 */
export function SweepButton({
  venueId,
  pool,
  disabled,
  afterAct,
}: {
  venueId: string;
  pool: boolean;
  disabled: boolean;
  afterAct: () => Promise<void>;
}) {
  const sweep = async (): Promise<void> => {
    const r = await api.post<{ expired: string[] }>(`/v1/venues/${venueId}/sweeps`);
    const n = r.expired.length;
    say('info', pool ? released(n) : swept(n));
    await afterAct();
  };
  return (
    <ActButton big testId="sweep-offers" disabled={disabled} onAct={sweep}>
      {pool ? <BarLabel first="Release" second="expired holds" /> : <BarLabel first="Sweep" second="expired offers" />}
    </ActButton>
  );
}

const swept = (n: number): string =>
  n === 0
    ? 'Swept: no offer had run out.'
    : `Swept: ${plural(n, 'offer')} had run out and ${n === 1 ? 'is' : 'are'} now released.`;

const released = (n: number): string =>
  n === 0
    ? 'No hold had run out: nothing to release.'
    : `Released: ${plural(n, 'hold')} had run out; ${n === 1 ? 'its' : 'their'} seats are free again.`;
