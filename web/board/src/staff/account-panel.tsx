import { useState } from 'preact/hooks';
import { messageOf } from '../api/client';
import { plural } from '../format';
import { signOut } from '../state/session';
import { staffApi } from './staff-api';

/** "1 other session was signed out.", "3 other sessions were …": it read "1 other session(s) signed out." */
function signedOut(n: number): string {
  if (n === 0) return 'You were not signed in anywhere else.';
  return `${plural(n, 'other session')} ${n === 1 ? 'was' : 'were'} signed out.`;
}

/** Any staff member: change your own password (ends your other sessions), or sign out everywhere. */
export function AccountPanel({ forced = false, onChanged }: { forced?: boolean; onChanged?: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const change = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (next !== again) return setNote({ text: 'The two new passwords differ.', error: true });
    setBusy(true);
    try {
      const { endedSessions } = await staffApi.changeOwnPassword(current, next);
      setNote({ text: `Password changed. ${signedOut(endedSessions)}`, error: false });
      setCurrent('');
      setNext('');
      setAgain('');
      onChanged?.();
    } catch (err) {
      setNote({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };
  const everywhere = async (): Promise<void> => {
    try {
      await staffApi.signOutEverywhere();
    } catch {
      // Signed out here either way.
    }
    signOut('You signed out on every device.');
  };
  return (
    <section class="card account-panel" data-testid="account-panel">
      <h2>Your account</h2>
      {forced && <p class="info">Your password was chosen by someone else. Choose your own before you go on.</p>}
      <form class="form" onSubmit={(e) => void change(e)} data-testid="change-password">
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </label>
        <label>
          New password (8 characters or more)
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </label>
        <label>
          New password again
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={again}
            onInput={(e) => setAgain(e.currentTarget.value)}
          />
        </label>
        {note && (
          <p class={note.error ? 'error' : 'info'} role={note.error ? 'alert' : 'status'}>
            {note.text}
          </p>
        )}
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Change password
        </button>
      </form>
      {!forced && (
        <button type="button" class="btn btn-secondary" onClick={() => void everywhere()} data-testid="sign-out-everywhere">
          Sign out everywhere
        </button>
      )}
    </section>
  );
}
