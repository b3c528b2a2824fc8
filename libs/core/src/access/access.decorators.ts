import { SetMetadata } from '@nestjs/common';

export const ROLES = ['host', 'manager', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Whether a member with role `actor` (or none) may grant or manage `role`: owners anyone, managers hosts only. */
export function mayGrant(actor: Role | null, role: Role): boolean {
  return actor === 'owner' || (actor === 'manager' && roleRank(role) < roleRank('manager'));
}

/**
 * What a route lets in. Every route declares one; the access guard refuses a route that does not
 * (deny by default), and the access-matrix test walks the router to check each declaration holds.
 */
export type AccessRule =
  | { kind: 'public'; reason: string }
  | { kind: 'signed-in' }
  | { kind: 'venue-role'; role: Role }
  | { kind: 'party-session'; session: 'queue' | 'booking' };

export const ACCESS_RULE = 'hostboard:access';

/** Open to anyone; the reason is for the reader and the access matrix. */
export const Public = (reason: string): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_RULE, { kind: 'public', reason } satisfies AccessRule);

/** Any signed-in staff user, whatever their venues. */
export const SignedIn = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_RULE, { kind: 'signed-in' } satisfies AccessRule);

/**
 * A staff user with at least this role at the route's `:venueId`. Staff of other venues get 404 (the
 * venue's existence is not confirmed), members with a lower role 403.
 */
export const VenueRole = (role: Role): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_RULE, { kind: 'venue-role', role } satisfies AccessRule);

/** A party's own session (queue or booking); it opens that one record only. */
export const PartySession = (session: 'queue' | 'booking'): MethodDecorator & ClassDecorator =>
  SetMetadata(ACCESS_RULE, { kind: 'party-session', session } satisfies AccessRule);
