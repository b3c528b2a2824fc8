import type { Session } from '../api/types';
import { api } from '../state/session';

/** The staff-lifecycle routes of issue 13 (members, invitations, passwords, sessions). */

export type Role = 'host' | 'manager' | 'owner';
export const ROLES: Role[] = ['host', 'manager', 'owner'];

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** The venue created the account and its holder has not chosen their own password: Reset password works. */
  passwordResettable?: boolean;
}

export interface AddMemberAnswer extends Member {
  outcome: 'created' | 'invited' | 'updated';
  message: string;
  invitation?: { delivery: 'email' | 'in-person'; token: string | null; link: string | null; expiresAt: string };
}

/** An open invitation link, as `GET …/invitations` lists it (never the link itself). */
export interface PendingInvitation {
  id: string;
  email: string;
  name: string;
  role: Role;
  delivery: 'email' | 'in-person';
  sentBy: { userId: string; email: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
  /** The one asking may grant its role, so Cancel works (a manager: host invitations only). */
  cancellable: boolean;
  /** Its sender may still grant its role; while not, the link does not work. */
  linkWorks: boolean;
}

/** What an invitation link joins, read before it is claimed (`POST /v1/auth/invitations/preview`). */
export interface InvitationPreview {
  venueName: string;
  role: Role;
  /** The name the inviter gave (null on older links). */
  name: string | null;
  expiresAt: string;
  /** The claim will also ask for the account's current password. */
  needsCurrentPassword: boolean;
}

/** The sign-in answer, with the flag the server sets on a password someone else chose. */
export type StaffSession = Session & { mustChangePassword?: boolean };

export const staffApi = {
  members: (venueId: string) => api.get<Member[]>(`/v1/venues/${venueId}/members`),
  add: (venueId: string, body: { email: string; name?: string; password?: string; role: Role }) =>
    api.post<AddMemberAnswer>(`/v1/venues/${venueId}/members`, body),
  changeRole: (venueId: string, userId: string, role: Role) =>
    api.request<Member>('PATCH', `/v1/venues/${venueId}/members/${userId}`, { body: { role } }),
  remove: (venueId: string, userId: string) => api.delete(`/v1/venues/${venueId}/members/${userId}`),
  resetPassword: (venueId: string, userId: string, password: string) =>
    api.post<{ endedSessions: number }>(`/v1/venues/${venueId}/members/${userId}/password`, { password }),
  invitations: (venueId: string) => api.get<PendingInvitation[]>(`/v1/venues/${venueId}/invitations`),
  /** A retry after no answer sends the same key (ApiClient.delete), so a cancel that went through answers as it did then. */
  cancelInvitation: (venueId: string, invitationId: string) =>
    api.delete<{ message: string }>(`/v1/venues/${venueId}/invitations/${invitationId}`),
  changeOwnPassword: (currentPassword: string, newPassword: string) =>
    api.post<{ endedSessions: number }>('/v1/auth/password', { currentPassword, newPassword }),
  signOutEverywhere: () => api.request<void>('DELETE', '/v1/auth/sessions'),
  /** A read: the token travels in the body (never in a URL), and nothing is spent. */
  previewInvitation: (token: string) =>
    api.post<InvitationPreview>('/v1/auth/invitations/preview', { token }, { idempotencyKey: undefined }),
  // No Idempotency-Key: a replay would hand the stored session token to whoever repeats it.
  claim: (token: string, password: string, currentPassword?: string) =>
    api.post<StaffSession>(
      '/v1/auth/invitations/claim',
      { token, password, ...(currentPassword ? { currentPassword } : {}) },
      {
        idempotencyKey: undefined,
      },
    ),
};

/** The invitation secret from `/board/#claim=<token>` (a fragment: no server log sees it), or null. */
export function claimTokenInLocation(): string | null {
  const m = /^#claim=([A-Za-z0-9_-]{16,128})$/.exec(location.hash);
  return m?.[1] ?? null;
}
