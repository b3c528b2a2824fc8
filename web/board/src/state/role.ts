import { signal } from '@preact/signals';
import { api, session } from './session';

export type Role = 'host' | 'manager' | 'owner';
export const RANK: Record<Role, number> = { host: 1, manager: 2, owner: 3 };

/** The signed-in user's role at the venue on screen (null while being read). */
export const venueRole = signal<{ venueId: string; role: Role } | null>(null);

export function atLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}

/** A failed read of the role (the network) is tried again this often, while the venue is still on screen. */
const RETRY_MS = 2000;
/** The latest visit's read: an older one still retrying stops (another venue opened, or another user). */
let reading = 0;

/**
 * The role comes with the user's venue list (`GET /v1/venues`). A read that fails is tried again
 * until it answers, the page showing meanwhile what any member may use: a failure once meant "host"
 * for the whole visit, and a manager whose tablet dropped one request lost Messages, Reports and Set up.
 */
export async function loadRole(venueId: string): Promise<void> {
  // Read on every visit: another user may have signed in on this tablet since, or the role changed.
  venueRole.value = null;
  const visit = ++reading;
  for (;;) {
    try {
      const venues = await api.get<Array<{ id: string; role?: Role }>>('/v1/venues');
      if (visit !== reading) return;
      // Not among them (removed meanwhile): the least role; the board's own reads say the rest.
      venueRole.value = { venueId, role: venues.find((v) => v.id === venueId)?.role ?? 'host' };
      return;
    } catch {
      // Meanwhile what any member may use (the board itself), not a blank page; the read goes on.
      if (visit === reading && venueRole.value === null) venueRole.value = { venueId, role: 'host' };
      await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS));
      if (visit !== reading || !session.value) return;
    }
  }
}
