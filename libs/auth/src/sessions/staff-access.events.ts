import { Injectable } from '@nestjs/common';

export type StaffAccessChange =
  | { kind: 'sessions-ended'; sessionIds: string[] }
  | { kind: 'membership-ended'; venueId: string; userId: string };

type Listener = (change: StaffAccessChange) => void;

/**
 * Tells whoever holds live connections (the board socket) that access ended, after the change has
 * committed: sessions signed out, expired early by a password change or reset, a member removed.
 * The listener fans it out to every api process; a periodic re-check catches anything missed.
 */
@Injectable()
export class StaffAccessEvents {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: StaffAccessChange): void {
    if (change.kind === 'sessions-ended' && change.sessionIds.length === 0) return;
    for (const l of this.listeners) l(change);
  }
}
