import { signal } from '@preact/signals';

/** The page's views, under /board (the api answers index.html for any /board/<view> path). */
export type Route =
  | { view: 'venues' }
  | { view: 'board'; venueId: string }
  | { view: 'messages'; venueId: string }
  | { view: 'staff'; venueId: string };

const BASE = '/board';
const UUID = '[0-9a-fA-F-]{36}';

export function parse(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const board = new RegExp(`^/venues/(${UUID})/?$`).exec(rest);
  if (board?.[1]) return { view: 'board', venueId: board[1] };
  const messages = new RegExp(`^/venues/(${UUID})/messages/?$`).exec(rest);
  if (messages?.[1]) return { view: 'messages', venueId: messages[1] };
  const staff = new RegExp(`^/venues/(${UUID})/staff/?$`).exec(rest);
  if (staff?.[1]) return { view: 'staff', venueId: staff[1] };
  return { view: 'venues' };
}

export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'venues':
      return `${BASE}/`;
    case 'board':
      return `${BASE}/venues/${route.venueId}`;
    case 'messages':
      return `${BASE}/venues/${route.venueId}/messages`;
    case 'staff':
      return `${BASE}/venues/${route.venueId}/staff`;
  }
}

export const route = signal<Route>(parse(location.pathname));

export function navigate(to: Route): void {
  const href = hrefOf(to);
  if (location.pathname !== href) history.pushState(null, '', href);
  route.value = to;
}

window.addEventListener('popstate', () => {
  route.value = parse(location.pathname);
});
