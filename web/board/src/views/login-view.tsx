import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import type { Session } from '../api/types';
import { api, signedOutNotice, signInAs } from '../state/session';

/** Staff sign-in (POST /v1/auth/sessions). */
export function LoginView() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // No Idempotency-Key: a replay would hand the stored session token to whoever repeats it.
      signInAs(await api.post<Session>('/v1/auth/sessions', { email: email.trim(), password }, { idempotencyKey: undefined }));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <form class="form card" onSubmit={(e) => void submit(e)} data-testid="login">
        <h1>hostboard</h1>
        <p class="muted">Sign in to the floor board.</p>
        {signedOutNotice.value && <p class="info">{signedOutNotice.value}</p>}
        <label>
          Email
          <input
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {error && (
          <p class="error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
        <button type="submit" class="btn btn-primary wide" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
