import type { ComponentChildren } from 'preact';
import { navigate, type Route } from '../state/router';
import { api, session, signOut } from '../state/session';

interface Props {
  title: string;
  venueId?: string;
  current: Route['view'];
  children?: ComponentChildren;
}

/** Venue name, the page's views, and sign-out: large targets along the top of a landscape tablet. */
export function TopBar({ title, venueId, current, children }: Props) {
  const logout = async (): Promise<void> => {
    try {
      await api.request('DELETE', '/v1/auth/sessions/current');
    } catch {
      // Signed out here either way; the server session lapses by itself.
    }
    signOut();
  };
  const tab = (view: Route['view'], label: string, to: Route) => (
    <button
      type="button"
      class={`tab${current === view ? ' active' : ''}`}
      aria-current={current === view ? 'page' : undefined}
      onClick={() => navigate(to)}
    >
      {label}
    </button>
  );
  return (
    <header class="top-bar">
      <h1 data-testid="title">{title}</h1>
      <nav>
        {tab('venues', 'Venues', { view: 'venues' })}
        {venueId && tab('board', 'Board', { view: 'board', venueId })}
        {venueId && tab('messages', 'Messages', { view: 'messages', venueId })}
        {venueId && tab('staff', 'Staff', { view: 'staff', venueId })}
      </nav>
      <div class="top-right">
        {children}
        <span class="muted who">{session.value?.user.name ?? session.value?.user.email}</span>
        <button type="button" class="btn btn-secondary" onClick={() => void logout()}>
          Sign out
        </button>
      </div>
    </header>
  );
}
