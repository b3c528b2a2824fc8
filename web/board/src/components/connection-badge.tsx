import type { Connection } from '../state/board-sync';

const LABEL: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Up to date',
  reconnecting: 'Reconnecting… actions paused',
  refused: 'Not connected',
};

/** Whether the board can be trusted, always visible. */
export function ConnectionBadge({ state }: { state: Connection }) {
  return (
    <span class={`badge conn conn-${state}`} role="status" data-testid="connection" data-state={state}>
      <span class="dot" aria-hidden="true" />
      {LABEL[state]}
    </span>
  );
}
