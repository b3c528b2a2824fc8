import { useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import type { BoardSnapshot, LookedUp } from '../api/types';
import { api } from '../state/session';
import { say } from '../state/notice';
import { ownAct } from '../state/own-acts';
import { ActButton } from './act-button';
import { Countdown } from './countdown';
import { Modal } from './modal';
import { canScan, QrScanner } from './qr-scanner';
import { tokenFrom } from '../queue-link';
import { boardWords } from '../words';

interface Props {
  board: BoardSnapshot;
  venueNow: (wall: number) => number;
  onFound: (entryId: string | null) => void;
  afterAct: () => Promise<void>;
  onClose: () => void;
}

/**
 * A party shows its queue code: the desk finds the party without using the code up (the party
 * keeps it), then accepts for them with the host's own rights.
 */
export function DeskLookup({ board, venueNow, onFound, afterAct, onClose }: Props) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<LookedUp | null>(null);
  const base = `/v1/venues/${board.venue.id}`;
  const words = boardWords(board.venue.seating);
  const who = words.who;
  const [scanning, setScanning] = useState(false);
  const find = async (e: Event | null, code = token): Promise<void> => {
    e?.preventDefault();
    setScanning(false);
    setBusy(true);
    setError(null);
    try {
      // Spaces are the reader's grouping, not part of the code; a scanned or pasted queue link
      // (`…/q/#<token>`, what the token card's QR holds) carries the code after its '#'.
      const r = await api.post<LookedUp>(`${base}/queue/lookup`, { token: tokenFrom(code) }, { idempotencyKey: undefined });
      setFound(r);
      onFound(r.entry.id);
    } catch (err) {
      // The API's TOKEN_INVALID words speak to the guest ("ask the venue for a fresh one"); the host
      // at the desk is the venue.
      setError(
        err instanceof ApiError && err.code === 'TOKEN_INVALID'
          ? `No ${who} has this code now: it may be mistyped, already used, expired or replaced by a newer one. Check it, or find the ${who} in the queue.`
          : messageOf(err),
      );
    } finally {
      setBusy(false);
    }
  };
  const close = (): void => {
    onFound(null);
    onClose();
  };
  if (!found) {
    return (
      <Modal title={`Find a ${who} by their code`} onClose={close} testId="lookup">
        <form class="form" onSubmit={(e) => void find(e)}>
          <label>
            Their queue code or queue link
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
          {canScan() &&
            (scanning ? (
              <QrScanner
                onCode={(code) => {
                  setToken(code);
                  void find(null, code);
                }}
              />
            ) : (
              <button type="button" class="btn btn-secondary" onClick={() => setScanning(true)}>
                Scan their QR code
              </button>
            ))}
          {error && (
            <p class="error" role="alert" data-testid="lookup-error">
              {error}
            </p>
          )}
          <button type="submit" class="btn btn-primary wide" disabled={busy || token.trim() === ''} data-testid="lookup-submit">
            Find
          </button>
        </form>
      </Modal>
    );
  }
  const { entry, position, offer } = found;
  const live = offer?.state === 'live' ? offer : null;
  const labels = (live?.tableIds ?? []).map((id) => board.tables.find((t) => t.id === id)?.label ?? '?');
  return (
    <Modal
      title={`${entry.name}, ${entry.partySize} ${entry.partySize === 1 ? 'person' : 'people'}`}
      onClose={close}
      testId="found"
    >
      <p data-testid="found-status">
        {position !== null ? `Number ${position} in line, ` : ''}
        {words.lookupStatus[entry.status] ?? entry.status}.
      </p>
      {live ? (
        <div class="offer-box">
          <p>
            {labels.length > 0 ? `Table ${labels.join(' + ')} is held for them: ` : words.heldForThem(entry.partySize)}
            <Countdown until={live.expiresAt} venueNow={venueNow} stopped={board.venue.sandbox} />
          </p>
          <ActButton
            kind="primary"
            wide
            testId="found-accept"
            onAct={() =>
              ownAct(
                `accept:${live.id}`,
                async () => {
                  await api.post(`${base}/offers/${live.id}/accept`);
                  say('ok', `${entry.name} accepted.`);
                },
                async () => {
                  say('info', `${entry.name} was accepted on another screen.`);
                },
              ).then(async () => {
                await afterAct();
                setFound({ ...found, entry: { ...entry, status: 'confirmed' }, offer: { ...live, state: 'accepted' } });
              })
            }
          >
            Accept for them
          </ActButton>
        </div>
      ) : (
        <p class="muted">{entry.status === 'confirmed' ? 'Accepted: their place is confirmed.' : 'Nothing to accept yet.'}</p>
      )}
      <button type="button" class="btn btn-secondary wide" onClick={close}>
        Done
      </button>
    </Modal>
  );
}
