import { signal } from '@preact/signals';
import { api, session } from './session';

export type Role = 'host' | 'manager' | 'owner';
export const RANK: Record<Role, number> = { host: 1, manager: 2, owner: 3 };

/** The signed-in user's role at the venue on screen (null while being read). */
export const venueRole = signal<{ venueId: string; role: Role } | null>(null);

export function atLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}

/**
 * The member list answers managers and owners only: a refusal means this user is a host here.
 * A venue view that names the caller's role would save the read; until then this is the one place.
 */
export async function loadRole(venueId: string): Promise<void> {
  // Read on every visit: another user may have signed in on this tablet since, or the role changed.
  venueRole.value = null;
  let role: Role;
  try {
    const members = await api.get<Array<{ userId?: string; email?: string; role: Role }>>(`/v1/venues/${venueId}/members`);
    const me = session.value?.user;
    const mine = members.find((m) => m.userId === me?.id || m.email === me?.email);
    role = mine?.role ?? 'manager';
  } catch {
    role = 'host';
  }
  venueRole.value = { venueId, role };
}
