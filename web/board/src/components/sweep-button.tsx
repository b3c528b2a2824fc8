import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';
import { BarLabel } from './bar-label';
import { boardWords } from '../words';

/**
 * The spec's "Sweep expired offers": a host runs the sweep of lapsed holds by hand (each press its own
 * Idempotency-Key, so a retried press is one sweep). An empty sweep is a normal answer, not an error.
 * A seat pool (a workshop) holds seats for a group and offers no table: there the same act releases
 * expired holds, in the words its rows and counts use (held, hold).
 */
export function SweepButton({
  venueId,
  seating,
  disabled,
  afterAct,
}: {
  venueId: string;
  seating: 'tables' | 'pool';
  disabled: boolean;
  afterAct: () => Promise<void>;
}) {
  const words = boardWords(seating);
  const sweep = async (): Promise<void> => {
    const r = await api.post<{ expired: string[] }>(`/v1/venues/${venueId}/sweeps`);
    const n = r.expired.length;
    say('info', words.swept(n));
    await afterAct();
  };
  return (
    <ActButton big testId="sweep-offers" disabled={disabled} onAct={sweep}>
      <BarLabel first={words.sweepLabel[0]} second={words.sweepLabel[1]} />
    </ActButton>
  );
}
