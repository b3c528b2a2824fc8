import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client';
import { signInAs } from '../state/session';
import { staffApi, type InvitationPreview } from './staff-api';

/**
 * What the page knows of the link before a password is typed: what it joins (`ready`), that it is
 * dead (`dead`, the server's own words), or nothing (`unknown`: the read failed for another reason,
 * a lost connection or too many tries; the form is shown as before and the claim answers for itself).
 */
type Preview =
  | { kind: 'loading' }
  | { kind: 'ready'; preview: InvitationPreview }
  | { kind: 'dead'; message: string }
  | { kind: 'unknown'; message: string };

/** Accepting an invitation from its one-time link (`/board/#claim=…`): choose a password, get signed in. */
export function ClaimView({ token, onDone }: { token: string; onDone: () => void }) {
  const [preview, setPreview] = useState<Preview>({ kind: 'loading' });
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');
  /** The claim asked for the current password after all (the account chose one since the page read the link). */
  const [currentAsked, setCurrentAsked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    staffApi.previewInvitation(token).then(
      (p) => live && setPreview({ kind: 'ready', preview: p }),
      (err: unknown) => {
        if (!live) return;
        const dead = err instanceof ApiError && err.code === 'TOKEN_INVALID';
        setPreview({ kind: dead ? 'dead' : 'unknown', message: messageOf(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [token]);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const s = await staffApi.claim(token, password, current || undefined);
      history.replaceState(null, '', location.pathname);
      signInAs(s);
      onDone();
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') setCurrentAsked(true);
    } finally {
      setBusy(false);
    }
  };
  if (preview.kind === 'loading') {
    return (
      <main class="login">
        <section class="form card" data-testid="claim-loading">
          <p class="muted">Reading your invitation…</p>
        </section>
      </main>
    );
  }
  if (preview.kind === 'dead') {
    return (
      <main class="login">
        <section class="form card" data-testid="claim-dead">
          <h1>This invitation link does not work</h1>
          <p class="error" role="alert">
            {preview.message}
          </p>
          <p>
            A link works once, for 7 days, and stops working when the venue sends a newer one or cancels it. There is no need to
            choose a password here.
          </p>
          <button type="button" class="btn btn-secondary wide" onClick={() => location.replace(location.pathname)}>
            Go to sign in
          </button>
        </section>
      </main>
    );
  }
  const known = preview.kind === 'ready' ? preview.preview : null;
  // Asked only when the claim will ask (known), or, when the page could not read the link, as before.
  const askCurrent = currentAsked || (known ? known.needsCurrentPassword : true);
  return (
    <main class="login">
      <form class="form card" onSubmit={(e) => void submit(e)} data-testid="claim">
        {known ? (
          <>
            <h1 data-testid="claim-title">
              Join <bdi>{known.venueName}</bdi> as {known.role}
            </h1>
            {known.name && (
              <p data-testid="claim-name">
                Invitation for <bdi>{known.name}</bdi>
              </p>
            )}
          </>
        ) : (
          <h1>Accept your invitation</h1>
        )}
        {preview.kind === 'unknown' && <p class="muted">{preview.message}</p>}
        <p class="muted">Choose your password. Accepting signs out every other session of your account.</p>
        <label>
          New password (8 characters or more)
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {askCurrent && (
          <label>
            {known
              ? 'Current password (you already have an account: enter the password you sign in with now)'
              : 'Current password (only if you already had an account and were handed this link in person)'}
            <input
              type="password"
              autoComplete="current-password"
              required={known !== null}
              value={current}
              onInput={(e) => setCurrent(e.currentTarget.value)}
            />
          </label>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="btn btn-primary wide" disabled={busy}>
          Accept
        </button>
      </form>
    </main>
  );
}
