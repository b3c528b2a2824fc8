import { signal } from '@preact/signals';

/**
 * The page's views, under /board (the api answers index.html for any /board/<view> path):
 * the venue list, and one venue's tabs at /board/venues/<id>/<tab> (the floor at /board/venues/<id>).
 * Tabs are listed in `views/registry.tsx`; the router only carries the tab's id.
 */
export type Route = { view: 'venues' } | { view: 'venue'; venueId: string; tab: string };

const BASE = '/board';
const UUID = '[0-9a-fA-F-]{36}';
export const DEFAULT_TAB = 'floor';

export function parse(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const m = new RegExp(`^/venues/(${UUID})(?:/([a-z-]+))?/?$`).exec(rest);
  if (m?.[1]) return { view: 'venue', venueId: m[1], tab: m[2] ?? DEFAULT_TAB };
  return { view: 'venues' };
}

export function hrefOf(route: Route): string {
  if (route.view === 'venues') return `${BASE}/`;
  return route.tab === DEFAULT_TAB ? `${BASE}/venues/${route.venueId}` : `${BASE}/venues/${route.venueId}/${route.tab}`;
}

export const route = signal<Route>(parse(location.pathname));

export function navigate(to: Route): void {
  const href = hrefOf(to);
  if (location.pathname !== href) history.pushState(null, '', href);
  route.value = to;
}

export function openTab(venueId: string, tab: string): void {
  navigate({ view: 'venue', venueId, tab });
}

window.addEventListener('popstate', () => {
  route.value = parse(location.pathname);
});
