import type { Reach } from '../api/types';
import './reach-marker.css';

const SAID: Record<Exclude<Reach, 'ok'>, { label: string; title: string }> = {
  failed: { label: 'not reached', title: 'A message to this party failed: tell them in person.' },
  none: { label: 'no contact', title: 'This party gave no contact the venue sends messages on: tell them in person.' },
};

/** Marks a queue row whose party the venue's messages do not reach; nothing for a reached party. */
export function ReachMarker({ reach }: { reach: Reach | undefined }) {
  if (!reach || reach === 'ok') return null;
  const said = SAID[reach];
  return (
    <span class={`reach reach-${reach}`} data-testid="reach" data-reach={reach} title={said.title}>
      {said.label}
    </span>
  );
}
