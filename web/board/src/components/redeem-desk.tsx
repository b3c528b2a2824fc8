import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { BoardSnapshot, OpenedQueueSession, PartyQueueView } from '../api/types';
import { api } from '../state/session';
import { say } from '../state/notice';
import { ActButton } from './act-button';
import { Countdown } from './countdown';
import { Modal } from './modal';
import { tokenFrom } from '../queue-link';

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  onOpened: (entryId: string | null) => void;
  afterAct: () => Promise<void>;
  onClose: () => void;
}

interface Opened {
  sessionToken: string;
  view: PartyQueueView;
}

/**
 * A party hands over its queue token (typed, or read by a scanner into the field): the desk
 * exchanges it for the party's own session (POST /v1/queue-sessions; a token works once) and opens
 * that entry, so the host accepts its offer as the party, with the party's session.
 */
export function RedeemDesk({ board, venueNow, onOpened, afterAct, onClose }: Props) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);

  const read = async (sessionToken: string): Promise<PartyQueueView> =>
    api.get<PartyQueueView>('/v1/queue-session', { queueSession: sessionToken });

  const redeem = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Spaces are the reader's grouping, not part of the token; a scanned queue link carries it after '#'.
      const s = await api.post<OpenedQueueSession>(
        '/v1/queue-sessions',
        { token: tokenFrom(token) },
        { idempotencyKey: undefined },
      );
      if (!s.sessionToken) throw new Error('This token was already redeemed.');
      const view = await read(s.sessionToken);
      setOpened({ sessionToken: s.sessionToken, view });
      onOpened(s.entryId);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const accept = async (o: Opened): Promise<void> => {
    await api.post('/v1/queue-session/accept', {}, { queueSession: o.sessionToken });
    say('ok', `Accepted for ${o.view.entry.name}.`);
    setOpened({ ...o, view: await read(o.sessionToken) });
    await afterAct();
  };

  const close = (): void => {
    onOpened(null);
    onClose();
  };

  if (!opened) {
    return (
      <Modal title="Redeem at the desk" onClose={close} testId="redeem">
        <form class="form" onSubmit={(e) => void redeem(e)}>
          <label>
            The party's queue token
            <input
              name="token"
              class="token-input"
              autoComplete="off"
              autoCapitalize="off"
              spellcheck={false}
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
              autoFocus
            />
          </label>
          {error && (
            <p class="error" role="alert" data-testid="redeem-error">
              {error}
            </p>
          )}
          <button type="submit" class="btn btn-primary wide" disabled={busy || token.trim() === ''} data-testid="redeem-submit">
            Redeem
          </button>
        </form>
      </Modal>
    );
  }

  const { entry, position, offer } = opened.view;
  const live = offer?.state === 'live' ? offer : null;
  return (
    <Modal title={`${entry.name}, party of ${entry.partySize}`} onClose={close} testId="redeemed">
      <p data-testid="redeemed-status">
        {position !== null ? `Position ${position}` : 'Not in the active queue'} · {entry.status}
      </p>
      {live ? (
        <div class="offer-box">
          <p>
            Offer open: <Countdown until={live.expiresAt} venueNow={venueNow} stopped={board.venue.sandbox} />
          </p>
          <ActButton kind="primary" testId="redeemed-accept" onAct={() => accept(opened)}>
            Accept for the party
          </ActButton>
        </div>
      ) : (
        <p class="muted">
          {entry.status === 'confirmed' ? 'Their seats are confirmed.' : 'No offer is open for this party yet.'}
        </p>
      )}
    </Modal>
  );
}
