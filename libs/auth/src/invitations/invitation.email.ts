import type { EntityManager } from 'typeorm';
import { NOT_SENT, type OutboxWriter } from '@hostboard/outbox';

/** The template of a staff invitation; never listed among a venue's guest messages (it carries a one-time link). */
export const STAFF_INVITATION_TEMPLATE = 'staff-invitation';

/** Where a claim link opens: the board page reads the secret from the fragment, which no server log sees. */
export function claimPath(token: string): string {
  return `/board/#claim=${token}`;
}

export function invitationEmail(input: { venueName: string; role: string; token: string; days: number }): {
  subject: string;
  body: string;
} {
  return {
    subject: `You are invited to ${input.venueName} on hostboard`,
    body: [
      `You have been invited to join ${input.venueName} as ${input.role}.`,
      '',
      `To accept, open the hostboard board page at ${claimPath(input.token)} and choose a new password.`,
      'Accepting signs out every other session of your account.',
      `The link works once and for ${input.days} days. If you did not expect this, ignore this email: nothing is granted until you accept.`,
    ].join('\n'),
  };
}

/**
 * An invitation that ended (cancelled, replaced, its member removed) before the relay took its email:
 * the email is held back, so no one is sent a link that no longer works. At most one invitation of a
 * person to a venue is open, and this runs before a replacing one is recorded.
 */
export function holdBackInvitationEmail(outbox: OutboxWriter, tx: EntityManager, venueId: string, email: string): Promise<void> {
  return outbox.holdBackUnsent(tx, { venueId, template: STAFF_INVITATION_TEMPLATE, to: email, reason: NOT_SENT.invitationEnded });
}
