import { computed, signal } from '@preact/signals';
import { ApiClient } from '../api/client';
import type { Session } from '../api/types';

// Per tab (sessionStorage): a reload keeps the host signed in, a closed tab does not.
const KEY = 'hostboard.session';

function load(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export const session = signal<Session | null>(load());
export const signedOutNotice = signal<string | null>(null);
export const signedIn = computed(() => session.value !== null);

export function signInAs(s: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(s));
  signedOutNotice.value = null;
  session.value = s;
}

export function signOut(notice: string | null = null): void {
  sessionStorage.removeItem(KEY);
  signedOutNotice.value = notice;
  session.value = null;
}

export const api = new ApiClient(
  () => session.value?.token ?? null,
  () => signOut('Your session has ended. Please sign in again.'),
);
