import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, requestContext } from '@hostboard/core';
import { AuditEvent } from './audit-event.entity.js';

export type AuditAction =
  | 'login'
  | 'login-failed'
  | 'logout'
  | 'logout-everywhere'
  | 'password-changed'
  | 'password-change-failed'
  | 'password-reset'
  | 'owner-created'
  | 'account-created'
  | 'membership-added'
  | 'membership-changed'
  | 'membership-removed'
  | 'invitation-created'
  | 'invitation-claimed'
  | 'invitation-claim-failed'
  | 'invitation-cancelled';

export interface AuditEntry {
  action: AuditAction;
  venueId?: string | null;
  subjectUserId?: string | null;
  details?: Record<string, unknown>;
  actor?: string;
}

/** Records security-relevant acts with actor, time and address. */
@Injectable()
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  async record(tx: EntityManager, entry: AuditEntry): Promise<void> {
    await tx.insert(AuditEvent, {
      at: this.clock.now(),
      action: entry.action,
      actor: entry.actor ?? requestContext.actor(),
      venueId: entry.venueId ?? null,
      subjectUserId: entry.subjectUserId ?? null,
      ip: requestContext.current()?.ip ?? null,
      details: (entry.details ?? {}) as object,
    });
  }
}
