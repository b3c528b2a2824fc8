import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import { ActButton } from '../components/act-button';
import { localDayTime } from '../format';
import { say } from '../state/notice';
import { staffApi, type PendingInvitation } from './staff-api';

/**
 * The venue's open invitation links, under its members: who was invited, as what, by whom, until
 * when, and Cancel (behind a second tap) where the one looking may grant that role. A link sent to
 * the wrong address, or to a new host who never started, is stopped here before anyone claims it.
 * `refresh` changes whenever the panel did something that may open or end a link (an add, a removal).
 */
export function PendingInvitations({
  venueId,
  timeZone,
  refresh,
  onRead,
  onInviteAgain,
}: {
  venueId: string;
  timeZone: string | undefined;
  refresh: number;
  /** The list as read, for the add form: re-adding someone starts on the role they were invited as. */
  onRead?: (list: PendingInvitation[]) => void;
  /** Fills the add form with this invitation's person and role (a new link replaces this one). */
  onInviteAgain?: (invitation: PendingInvitation) => void;
}) {
  const [invitations, setInvitations] = useState<PendingInvitation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = (): void => {
    staffApi.invitations(venueId).then(
      (list) => {
        setInvitations(list);
        onRead?.(list);
        setError(null);
      },
      (err: unknown) => setError(messageOf(err)),
    );
  };
  useEffect(load, [venueId, refresh]);
  const cancel = async (invitation: PendingInvitation): Promise<void> => {
    // Only "no answer" may be the same cancel again (ApiClient.delete keeps its key), so a cancel
    // that went through reads as done, not "already cancelled".
    try {
      const done = await staffApi.cancelInvitation(venueId, invitation.id);
      say('ok', done.message);
    } finally {
      load();
    }
  };
  return (
    <section class="pending-invitations" data-testid="pending-invitations" aria-labelledby="pending-invitations-title">
      <h3 id="pending-invitations-title">Pending invitations</h3>
      {error && <p class="error">{error}</p>}
      {!error && invitations === null && <p class="muted">Loading invitations…</p>}
      {invitations?.length === 0 && <p class="empty">No invitation is waiting to be accepted.</p>}
      {invitations && invitations.length > 0 && (
        <ul class="invitation-list">
          {invitations.map((i) => (
            <li key={i.id} class="invitation" data-testid="invitation" data-email={i.email}>
              <div class="invitation-who">
                <strong>{i.email}</strong>
                {i.name && i.name !== i.email && <span class="muted"> {i.name}</span>}
                <span class="invitation-meta">
                  <span class="invitation-role">{i.role}</span> · sent by {senderOf(i)}
                  {i.delivery === 'email' ? ' by email' : ', handed over in person'}
                </span>
                {/* In the venue's time, once its zone is read: before, this device's zone gave another hour. */}
                {timeZone && (
                  <span class="invitation-meta" data-testid="invitation-expires">
                    expires {localDayTime(i.expiresAt, timeZone)}
                  </span>
                )}
                {!i.linkWorks && (
                  <span class="invitation-paused">The link does not work now: whoever sent it can no longer add a {i.role}.</span>
                )}
              </div>
              {i.cancellable && onInviteAgain && (
                <button type="button" class="btn btn-secondary" data-testid="invite-again" onClick={() => onInviteAgain(i)}>
                  Invite again
                </button>
              )}
              {i.cancellable ? (
                <ActButton
                  kind="danger"
                  confirm="Tap again: the link stops working"
                  testId="cancel-invitation"
                  onAct={() => cancel(i)}
                >
                  Cancel
                </ActButton>
              ) : (
                <span class="muted invitation-note">Only an owner can cancel this.</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function senderOf(i: PendingInvitation): string {
  if (!i.sentBy) return 'a former member';
  return i.sentBy.name && i.sentBy.name !== i.sentBy.email ? i.sentBy.name : i.sentBy.email;
}
