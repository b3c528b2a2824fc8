import { useEffect, useState } from 'preact/hooks';
import { navigate, openTab } from '../state/router';
import { api, session, signOut } from '../state/session';

interface Props {
  title: string;
  /**
   * What tells this venue from another of the same name (its slug and time zone): beside the name on a
   * tablet, in the menu on a phone (the name already takes the bar's two lines there), and in the
   * browser tab's title, so a manager of two "Harbor & Vine" venues sees which one is open.
   */
  detail?: string;
  venueId?: string;
  tabs?: Array<{ id: string; label: string }>;
  current?: string;
}

/** Venue name, the venue's tabs and a menu with sign-out: wraps onto two lines on a phone. */
export function TopBar({ title, detail, venueId, tabs = [], current }: Props) {
  const [menu, setMenu] = useState(false);
  useEffect(() => {
    document.title = detail ? `${title} (${detail}) · hostboard` : `${title} · hostboard`;
  }, [title, detail]);
  const logout = async (): Promise<void> => {
    try {
      await api.request('DELETE', '/v1/auth/sessions/current');
    } catch {
      // Signed out here either way; the server session lapses by itself.
    }
    signOut();
  };
  return (
    <header class="top-bar">
      <div class="top-row">
        <h1 data-testid="title">{title}</h1>
        {detail && (
          <span class="top-detail muted" data-testid="title-detail">
            {detail}
          </span>
        )}
        <div class="top-right">
          <button type="button" class="btn btn-secondary" aria-expanded={menu} data-testid="menu" onClick={() => setMenu(!menu)}>
            Menu
          </button>
          {menu && (
            <div class="menu" role="menu">
              <p class="muted">{session.value?.user.name ?? session.value?.user.email}</p>
              {detail && (
                <p class="muted" data-testid="menu-venue">
                  Open: {title} · {detail}
                </p>
              )}
              <button type="button" class="btn btn-secondary wide" role="menuitem" onClick={() => navigate({ view: 'venues' })}>
                All venues
              </button>
              <button
                type="button"
                class="btn btn-secondary wide"
                role="menuitem"
                data-testid="sign-out"
                onClick={() => void logout()}
              >
                Sign out
              </button>
            </div>
          )}
        </div>
      </div>
      {venueId && tabs.length > 0 && (
        <nav class="tabs" aria-label="Views">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              class={`tab${current === t.id ? ' active' : ''}`}
              aria-current={current === t.id ? 'page' : undefined}
              data-tab={t.id}
              onClick={() => openTab(venueId, t.id)}
            >
              {t.label}
            </button>
          ))}
        </nav>
      )}
    </header>
  );
}
