import { plural } from '../format';
import { say } from '../state/notice';
import { api } from '../state/session';
import { ActButton } from './act-button';
import { BarLabel } from './bar-label';

/**
 * The spec's "Sweep expired offers": a host runs the sweep of lapsed holds by hand (each press its own
 * Idempotency-Key, so a retried press is one sweep). An empty sweep is a normal answer, not an error.
 */
export function SweepButton({
  venueId,
  disabled,
  afterAct,
}: {
  venueId: string;
  disabled: boolean;
  afterAct: () => Promise<void>;
}) {
  const sweep = async (): Promise<void> => {
    const r = await api.post<{ expired: string[] }>(`/v1/venues/${venueId}/sweeps`);
    const n = r.expired.length;
    say(
      'info',
      n === 0
        ? 'Swept: no offer had run out.'
        : `Swept: ${plural(n, 'offer')} had run out and ${n === 1 ? 'is' : 'are'} now released.`,
    );
    await afterAct();
  };
  return (
    <ActButton big testId="sweep-offers" disabled={disabled} onAct={sweep}>
      <BarLabel first="Sweep" second="expired offers" />
    </ActButton>
  );
}
