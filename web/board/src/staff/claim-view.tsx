import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import { signInAs } from '../state/session';
import { staffApi } from './staff-api';

/** Accepting an invitation from its one-time link (`/board/#claim=…`): choose a password, get signed in. */
export function ClaimView({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <form class="form card" onSubmit={(e) => void submit(e)} data-testid="claim">
        <h1>Accept your invitation</h1>
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
        <label>
          Current password (only if you already had an account and were handed this link in person)
          <input
            type="password"
            autoComplete="current-password"
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </label>
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
