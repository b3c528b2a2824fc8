import type { Connection } from '../state/board-sync';

const LABEL: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  refused: 'Not connected',
};

/** Live / reconnecting, always visible: a host must know whether the board can be trusted. */
export function ConnectionBadge({ state, version }: { state: Connection; version: number | null }) {
  return (
    <span class={`badge conn conn-${state}`} role="status" data-testid="connection" data-state={state}>
      <span class="dot" aria-hidden="true" />
      {LABEL[state]}
      {version !== null && <span class="muted"> · v{version}</span>}
    </span>
  );
}
